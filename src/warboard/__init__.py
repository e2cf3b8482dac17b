"""warboard: two-player tactical wargames with exact rules, AI opponents and research interfaces."""

__version__ = "0.1.0"
