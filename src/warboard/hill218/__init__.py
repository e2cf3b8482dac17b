"""The card-placement engine: The Battle for Hill 218 and Ogre: Objective 218 (one engine, two
rulesets as data files)."""

from warboard.hill218.actions import Bury, Deploy, Draw, FirstPlayer, Strike
from warboard.hill218.game import CardGame, make_game
from warboard.hill218.ruleset import RULESETS, Ruleset, load_ruleset, load_ruleset_file
from warboard.hill218.serialize import position_from_json, position_to_json
from warboard.hill218.state import CardState

__all__ = [
    "RULESETS", "Bury", "CardGame", "CardState", "Deploy", "Draw", "FirstPlayer", "Ruleset",
    "Strike", "load_ruleset", "load_ruleset_file", "make_game", "position_from_json",
    "position_to_json",
]
