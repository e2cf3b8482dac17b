"""The server's refusals in the reader's language (issue 13, point 5): every refusal is a message
(``core.i18n``) of the ``server`` namespace, its English made from the English catalogue; the
HTTP error body and the WebSocket ``error`` message carry it as ``msg`` next to the English."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from message_keys import assert_every_key_named, assert_named_keys_in_both_catalogues
from server_helpers import TIMEOUT, LiveServer
from warboard.core.i18n import english, msg, say
from warboard.server.messages import Refused, TooMany, error_message

SERVER = Path(__file__).resolve().parents[1] / "src/warboard/server"
# a refusal or an error message made of a plain string (a literal, an f-string, ``str(...)``)
PLAIN = re.compile(r"""\b(?:Refused|TooMany|Unauthorized|unavailable|error_message|_failed)\(\s*"""
                   r"""(?:[rfb]?["']|str\()""")


def test_every_key_the_server_names_is_in_both_catalogues_with_its_params() -> None:
    assert_named_keys_in_both_catalogues("server", sorted(SERVER.rglob("*.py")), at_least=60)


def test_every_key_of_the_catalogue_is_used() -> None:
    assert_every_key_named("server", sorted(SERVER.rglob("*.py")))


def test_no_refusal_is_given_plain_text() -> None:
    for path in sorted(SERVER.rglob("*.py")):
        found = PLAIN.findall(path.read_text(encoding="utf-8"))
        assert found == [], path


def test_a_refusal_says_its_message_in_english() -> None:
    refusal = Refused(msg("server.stalePlay", version=3, now=5), 409)
    assert refusal.message == str(refusal) == (
        "stale version 3: the game is at version 5 (something happened since you looked); "
        "nothing was played")
    assert refusal.body() == {"error": refusal.message, "msg": refusal.msg}
    assert refusal.msg["params"] == {"version": 3, "now": 5}


def test_too_many_wraps_its_limit_and_the_wait() -> None:
    refusal = TooMany(msg("server.tooManyGames", most=10), 2.2)
    assert refusal.message == ("too many new games: at most 10 a minute from one address; "
                               "try again in 3 s")
    assert refusal.msg["params"]["refusal"] == msg("server.tooManyGames", most=10)
    assert "3" in say(refusal.msg, "ja") and "10" in say(refusal.msg, "ja")


def test_an_error_message_has_both() -> None:
    out = error_message(msg("server.notYourTurn"), "r1")
    assert out == {"type": "error", "message": "it is not your turn",
                   "msg": {"key": "server.notYourTurn", "params": {}}, "request_id": "r1"}


# ----------------------------------------------------------------------------- over the wire

@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    url = f"sqlite:///{tmp_path_factory.mktemp('db') / 'server.db'}"
    with LiveServer(url) as server:
        yield server


def in_japanese(message: dict[str, Any], english_text: str) -> str:
    """``message`` said in Japanese, checked to be the same message as ``english_text``."""
    assert english(message) == english_text
    japanese = say(message, "ja")
    assert japanese != english_text and re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", japanese)
    return japanese


def test_an_http_refusal_carries_its_message(live: LiveServer) -> None:
    answer = httpx.get(f"{live.base}/api/games/nosuchgame", timeout=TIMEOUT)
    assert answer.status_code == 404
    body = answer.json()
    assert body["error"] == "no game 'nosuchgame'"
    assert body["msg"]["key"] == "server.noSuch"
    assert "'nosuchgame'" in in_japanese(body["msg"], body["error"])


def test_a_validation_refusal_carries_its_message(live: LiveServer) -> None:
    answer = httpx.post(f"{live.base}/api/games", json={"mode": "nobody"}, timeout=TIMEOUT)
    assert answer.status_code == 422
    body = answer.json()
    assert body["msg"] == {"key": "server.invalid", "params": {"errors": body["error"]}}


def test_a_websocket_refusal_carries_its_message(live: LiveServer) -> None:
    created = httpx.post(f"{live.base}/api/games", json={"mode": "hotseat"}, timeout=TIMEOUT)
    assert created.status_code == 201, created.text
    game = created.json()
    with live.ws(game["id"], game["tokens"]["0"]) as ws:
        state = json.loads(ws.recv(TIMEOUT))
        assert state["type"] == "state"
        ws.send(json.dumps({"type": "play", "action": state["legal"][0],
                            "version": state["version"] + 7, "request_id": "late"}))
        error = json.loads(ws.recv(TIMEOUT))
    assert error["type"] == "error" and error["request_id"] == "late"
    assert error["msg"]["key"] == "server.stalePlay"
    assert error["message"].startswith("stale version ")
    assert "古いバージョン" in in_japanese(error["msg"], error["message"])
