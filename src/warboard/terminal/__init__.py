"""Terminal play and replay (``warboard play`` / ``warboard replay``).

Modules, each with one job:

- ``play``: the command (``run_play``) and the loop that runs a game at the keyboard;
- ``replay``: the command (``run_replay``) and stepping through a record;
- ``session``: a game in progress without any I/O (recorder, chance, per-reader logs, undo);
- ``agents``: built-in opponents, chosen by name;
- ``commands``: what the prompt answers besides plays (help, legal, show);
- ``view``: what a screen may show — observations only, so hidden cards cannot leak;
- ``render``: drawing views with rich; ``narrate``: the game log in words;
- ``names``: how seats, units, cells and results are written; ``prompt``: reading lines.
"""
