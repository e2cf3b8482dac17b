"""The log and the end of a game as messages (warboard.core.i18n): every message the narrators
and the end's words send, over many random games of the three games (every Hold the Line
scenario, with and without its optional rules), has its key in the English and the Japanese
catalogues with the same placeholders, and the English lines are those messages in English."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import fields
from typing import Any

import pytest

from warboard.core.i18n import I18N, PLACEHOLDER, catalogue, english, form
from warboard.core.record import Recorder
from warboard.core.registry import make_game
from warboard.core.results import end_words
from warboard.core.session import Session
from warboard.holdtheline.options import Options
from warboard.holdtheline.scenario_file import scenario_names

OWNED = ("log", "end")  # the namespaces these messages live in; names.json holds their names
CARD_GAMES = [(name, seed) for name in ("hill218", "ogre218") for seed in range(12)]
# every optional rule at once, but those that rule others out (11.3 with 11.6; grand tactical)
EXCLUSIVE = {"elite_four_dice", "grand_tactical"}
EVERY_RULE = {f.name: True for f in fields(Options)
              if f.type == "bool" and f.name not in EXCLUSIVE}


def namespace(lang: str, ns: str) -> dict[str, str]:
    return json.loads((I18N / lang / f"{ns}.json").read_text(encoding="utf-8"))


def placeholders(template: str) -> set[str]:
    return set(PLACEHOLDER.findall(template))


def messages_in(message: Any) -> Iterator[dict[str, Any]]:
    """``message`` and every message among its params, however deep."""
    if isinstance(message, dict):
        yield message
        for p in (message.get("params") or {}).values():
            yield from messages_in(p)


def check_message(message: dict[str, Any]) -> None:
    """Each message of ``message`` is said by both catalogues, with exactly its params."""
    en, ja = catalogue("en"), catalogue("ja")
    for m in messages_in(message):
        params = m.get("params") or {}
        key = form(en, m["key"], params)
        assert key in en and key in ja, m
        assert placeholders(en[key]) == set(params) == placeholders(ja[key]), m


def played(name: str, options: dict[str, Any], seed: int) -> Session:
    """A random game to its end, its logs followed for both seats and the public."""
    session = Session(make_game(name, options), seed, ["random", "random"], (0, 1, None))
    rng = random.Random(seed)
    session.resolve_chance()
    while not session.state.is_terminal():
        session.apply(rng.choice(session.state.legal_actions()))
        session.resolve_chance()
    return session


def check_session(session: Session) -> set[str]:
    """The logs of both seats and of the public: one message for each line, which is that
    message in English; every message (and the end's words) in both catalogues. The keys
    used."""
    used: set[str] = set()
    result = Recorder.result_json(session.state)
    for reader in (0, 1, None):
        lines, said = session.log(reader, last=None), session.log_messages(reader)
        assert [english(m) for m in said] == lines
        words = end_words(session.narrator, result, reader, ruled=False)
        assert words is not None
        for m in [*said, *(w["msg"] for w in words.values())]:
            check_message(m)
            used |= {x["key"] for x in messages_in(m)}
    return used


@pytest.mark.parametrize("ns", OWNED)
def test_the_two_catalogues_say_the_same_keys_with_the_same_placeholders(ns: str) -> None:
    en, ja = namespace("en", ns), namespace("ja", ns)
    assert list(en) == sorted(en) and list(ja) == sorted(ja)
    assert set(en) == set(ja)
    assert all(k.startswith(ns + ".") for k in en)
    for key, template in en.items():
        assert placeholders(template) == placeholders(ja[key]), key


def test_every_log_and_end_message_of_random_card_games_is_in_both_catalogues() -> None:
    used: set[str] = set()
    for name, seed in CARD_GAMES:
        used |= check_session(played(name, {}, seed))
    # the games reached the messages that matter: plays, hits, draws, each kind of ending
    for key in ("log.cards.deploy", "log.cards.deployAttacks", "log.cards.strike",
                "log.cards.destroys", "log.cards.damages", "log.cards.draws",
                "log.cards.drawsCards", "log.cards.buries", "log.cards.buriesHidden",
                "log.cards.over", "end.cards.wins", "end.common.win", "end.common.loss"):
        assert key in used, key


@pytest.mark.parametrize("scenario", scenario_names())
def test_every_event_message_of_random_hold_the_line_games_is_in_both_catalogues(
        scenario: str) -> None:
    used: set[str] = set()
    for seed, rules in ((1, {}), (2, EVERY_RULE)):
        used |= check_session(played("holdtheline", {"scenario": scenario, "options": rules},
                                     seed))
    for key in ("log.htl.actionDie", "log.htl.endTurn", "log.htl.unit"):
        assert key in used, key


def test_the_words_of_an_end_the_server_rules() -> None:
    narrator = make_game("holdtheline", {"scenario": "tutorial"}).narrator()
    flag = {"returns": [-1.0, 1.0], "summary": {"winner": 1, "reason": "time"}}
    words = end_words(narrator, flag, None, ruled=True)
    assert words is not None
    side = english(narrator.side(1))
    assert words["title"]["text"] == f"The {side} win!"
    assert words["reason"]["text"] == f"The {side} win on time."
    resigned = {"abandoned": True, "by": 0, "how": "resigned"}
    mine = end_words(narrator, resigned, 0, ruled=True)
    theirs = end_words(narrator, resigned, 1, ruled=True)
    assert mine is not None and theirs is not None
    assert mine["title"]["text"] == "You resigned" and theirs["title"]["text"] == "You win!"
    assert theirs["reason"]["text"] == f"{english(narrator.side(0))} resigned."
    assert mine["outcome"]["text"] == f"The {english(narrator.side(1))} win!"
    for w in (words, mine, theirs):
        for said in w.values():
            check_message(said["msg"])
