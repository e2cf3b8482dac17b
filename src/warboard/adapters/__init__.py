"""Research interfaces: warboard's games as OpenSpiel games (``adapters.openspiel``, extra
``openspiel``) and as PettingZoo / Gymnasium environments (``adapters.pettingzoo``, extra
``rl``), on the core protocol and one fixed-shape encoding per game (``adapters.encodings``).
See docs/adapters.md."""
