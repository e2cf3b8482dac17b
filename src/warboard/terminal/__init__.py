"""Terminal play and replay (``warboard play`` / ``warboard replay``): what every game's
terminal front end shares. Each game package draws its own screens and reads its own commands
(its ``GameInfo.terminal``) on these modules, each with one job:

- ``loop``: the prompt loop of a game being played (chance and agents on their own, humans at
  the prompt, quitting, saving), over a ``core.session.Session``;
- ``replay``: stepping through the screens of a record at the keyboard;
- ``agents``: built-in opponents, chosen by name;
- ``prompt``: reading lines.
"""
