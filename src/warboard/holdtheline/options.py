"""The optional rules of section 11 as named options, all off by default (contract §4).

A game's options (``make_game("holdtheline", {"options": {...}})``) are merged over the
scenario's: ``Options.from_mapping(scenario.options | game_options)``. Each option is written
by name (``"attacker_morale": true``) or by its rule number (``"11.1": true``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

# name -> (rule number, short description)
OPTIONS: dict[str, tuple[str, str]] = {
    "attacker_morale": ("11.1", "attackers pass a morale check before close combat"),
    "rally_unfired": ("11.2", "only units not fired on this turn may rally"),
    "elite_four_dice": ("11.3", "elite infantry at 3-4 MP roll 4 dice"),
    "artillery_hill_range": ("11.4", "artillery on a hill fires one hex farther (hits on 6)"),
    "artillery_forest": ("11.5", "artillery is -2 (not -1) firing into forest"),
    "leader_ratings": ("11.6", "leader combat dice and hit values"),
    "fire_advance": ("11.7", "advance after eliminating an adjacent unit by fire"),
    "force_march": ("11.8", "infantry may force march one extra hex"),
    "march_fatigue": ("11.9", "a successful force march may cost 1 MP (needs 11.8)"),
    "hills_clear": ("11.10", "hills do not stop movement"),
    "dragoon_evade": ("11.11", "dragoons may retreat before close combat"),
    "ap_adjust": ("11.12", "command AP added per seat, e.g. [1, 0]"),
    "equal_command": ("11.13", "both sides get the scenario's highest command AP"),
    "flank_attacks": ("11.14", "flank/rear attacks: +1 to hit, -1 defender morale"),
    "grand_tactical": ("11.15", "ranges reduced by one hex (never below 1)"),
}
BY_NUMBER = {num: name for name, (num, _) in OPTIONS.items()}


@dataclass(frozen=True)
class Options:
    attacker_morale: bool = False
    rally_unfired: bool = False
    elite_four_dice: bool = False
    artillery_hill_range: bool = False
    artillery_forest: bool = False
    leader_ratings: bool = False
    fire_advance: bool = False
    force_march: bool = False
    march_fatigue: bool = False
    hills_clear: bool = False
    dragoon_evade: bool = False
    ap_adjust: tuple[int, int] = (0, 0)
    equal_command: bool = False
    flank_attacks: bool = False
    grand_tactical: bool = False

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any] | None) -> Options:
        """Options from JSON/TOML; ``ValueError`` names an unknown option or a bad value."""
        values: dict[str, Any] = {}
        for key, value in (data or {}).items():
            name = BY_NUMBER.get(str(key), key)
            if name not in OPTIONS:
                raise ValueError(f"unknown option {key!r}; options: {', '.join(OPTIONS)}")
            if name == "ap_adjust":
                if (not isinstance(value, list | tuple) or len(value) != 2
                        or not all(isinstance(n, int) and not isinstance(n, bool)
                                   and -6 <= n <= 6 for n in value)):
                    raise ValueError("option ap_adjust (11.12) must be two whole numbers from "
                                     "-6 to 6, one per seat (e.g. [1, 0])")
                values[name] = (int(value[0]), int(value[1]))
            else:
                if not isinstance(value, bool):
                    raise ValueError(f"option {name} ({OPTIONS[name][0]}) must be true or false")
                values[name] = value
        opts = cls(**values)
        if opts.elite_four_dice and opts.leader_ratings:
            raise ValueError("options elite_four_dice (11.3) and leader_ratings (11.6) may not "
                             "be used together (rule 11.3)")
        if opts.march_fatigue and not opts.force_march:
            raise ValueError("option march_fatigue (11.9) needs force_march (11.8)")
        return opts

    def to_json(self) -> dict[str, Any]:
        """Only the options that differ from the default, by name."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if value != f.default:
                out[f.name] = list(value) if isinstance(value, tuple) else value
        return out
