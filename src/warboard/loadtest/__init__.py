"""``warboard loadtest``: many concurrent bot-vs-bot games over WebSockets against the table
server, timing every accepted play (docs/load.md).

``server`` starts and stops the server under test and reads the machine's CPU and load;
``bots`` plays the games; ``report`` turns the timings into figures; ``runner`` runs it all.
"""

from warboard.loadtest.runner import run_loadtest

__all__ = ["run_loadtest"]
