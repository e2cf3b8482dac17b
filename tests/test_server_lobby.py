"""Open games, the lobby, spectators, chat and rematches over real sockets (a Uvicorn server on a
free port, httpx and WebSockets), on SQLite and PostgreSQL: a signed-in player posts an open
game, another takes its seat exactly once, the lobby lists it waiting then live with its
players' names and spectator count, a spectator sees only the public view and never the chat,
the players chat (cleaned, limited, muted, kept with the game), and a finished game's rematch
is offered by one seat and accepted by the other with the seats swapped. Two processes on one
PostgreSQL database: tests/test_server_cluster.py."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from server_helpers import TIMEOUT, UNLIMITED, LiveServer
from test_server import FORBIDDEN_KEYS, Player, check_secrecy, keys_in, token_of
from test_server_players import bearer, sign_up
from warboard.ai.levels import LEVELS
from warboard.server.storage import CHAT_MAX_LENGTH


@pytest.fixture
def live(database_url: str) -> Iterator[LiveServer]:
    with LiveServer(database_url) as server:
        yield server


@pytest.fixture
def http(live: LiveServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=live.base, timeout=TIMEOUT) as client:
        yield client


def post_open(http: httpx.Client, key: str, **body: Any) -> dict[str, Any]:
    answer = http.post("/api/games", json={"mode": "open", **body}, headers=bearer(key))
    assert answer.status_code == 201, answer.text
    return answer.json()


def lobby(http: httpx.Client) -> dict[str, Any]:
    answer = http.get("/api/lobby")
    assert answer.status_code == 200, answer.text
    listing = answer.json()
    assert not FORBIDDEN_KEYS & set(keys_in(listing)), listing  # no seat token, no hand
    return listing


def until(check: Callable[[], bool]) -> None:
    """Wait for ``check`` to hold: the lobby's listing is made afresh at most once a second
    (and in a cluster, the spectator counts come by notices)."""
    deadline = time.monotonic() + TIMEOUT
    while not check():
        assert time.monotonic() < deadline, "it did not happen in time"
        time.sleep(0.05)


def next_of(player: Player, kind: str) -> dict[str, Any]:
    """The next message of ``kind``, past states, thinking and spectator counts."""
    while (message := player.receive())["type"] != kind:
        assert message["type"] in ("state", "thinking", "spectators"), message
    return message


def test_an_open_game_is_posted_taken_once_listed_and_watched(live: LiveServer,
                                                              http: httpx.Client) -> None:
    ada, bob, cy = (sign_up(http, name) for name in ("Ada", "Bob", "Cyd"))
    no_master = list(LEVELS)[:-1]  # master plays only the card games, which ship its models
    assert lobby(http) == {"open": [], "live": [], "computer": list(LEVELS),
                           "computer_levels": {"hill218": list(LEVELS), "ogre218": list(LEVELS),
                                               "holdtheline": no_master}}
    anonymous = http.post("/api/games", json={"mode": "open"})
    assert anonymous.status_code == 401 and "sign" in anonymous.json()["error"]
    clock = {"initial": 300, "increment": 5}
    posted = post_open(http, ada["key"], game="hill218", options={"quick_start": True},
                       seat="random", clock=clock)
    assert posted["mode"] == "open" and posted["invite"] is None and posted["tokens"] is None
    free = 1 - posted["seat"]
    until(lambda: len(lobby(http)["open"]) == 1)
    [listed] = lobby(http)["open"]
    assert listed == {"id": posted["id"], "game": "hill218", "options": {"quick_start": True},
                      "rated": False, "clock": clock, "seat": free, "poster": "Ada",
                      "created": listed["created"]}
    take = f"/api/games/{posted['id']}/take"
    assert http.post(take).status_code == 401
    own = http.post(take, headers=bearer(ada["key"]))
    assert own.status_code == 409 and "your own" in own.json()["error"]

    # two takers at once: exactly one gets the seat
    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(lambda key: http.post(take, headers=bearer(key)),
                                (bob["key"], cy["key"])))
    assert sorted(a.status_code for a in answers) == [201, 409]
    taken = next(a.json() for a in answers if a.status_code == 201)
    assert taken["seat"] == free and taken["id"] == posted["id"] and taken["token"]
    assert http.post(take, headers=bearer(cy["key"])).status_code == 409
    taker = "Bob" if answers[0].status_code == 201 else "Cyd"

    until(lambda: lobby(http)["open"] == [])
    [game] = lobby(http)["live"]
    names = [None, None]
    names[posted["seat"]], names[free] = "Ada", taker
    assert game["players"] == names and game["spectators"] == 0 and game["clock"] == clock

    poster = Player(live.ws_url(posted["id"], posted["token"]), 1)
    opponent = Player(live.ws_url(posted["id"], taken["token"]), 2)
    assert poster.next_state()["status"] == opponent.next_state()["status"] == "playing"
    spectator = Player(live.ws_url(posted["id"]), 3)
    assert spectator.next_state()["spectators"] == 1
    for seat in (poster, opponent):
        assert next_of(seat, "spectators") == {"type": "spectators", "count": 1}
    until(lambda: lobby(http)["live"][0]["spectators"] == 1)
    # a move, then a resignation: the spectator sees both, from the public view
    mover, token = next((p, t) for p, t in ((poster, posted["token"]),
                                            (opponent, taken["token"]))
                        if http.get(f"/api/games/{posted['id']}", params={"token": t}
                                    ).json()["legal"])
    mover.play(http.get(f"/api/games/{posted['id']}", params={"token": token}).json())
    poster.send(type="resign")
    while next_of(spectator, "state")["status"] != "over":
        pass
    spectator.close()
    assert next_of(poster, "spectators") == {"type": "spectators", "count": 0}
    for player in (poster, opponent):
        player.close()
    check_secrecy(live.database_url, posted["id"], None, spectator.messages, whole_turn=False)
    assert {m["type"] for m in spectator.messages} <= {"state", "spectators", "thinking"}
    until(lambda: lobby(http)["live"] == [])  # over: no longer listed


def test_the_lobby_answers_its_etag_alone_when_nothing_changed(live: LiveServer,
                                                               http: httpx.Client) -> None:
    first = http.get("/api/lobby")
    etag = first.headers["etag"]
    again = http.get("/api/lobby", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == etag
    ada = sign_up(http, "Ada")
    post_open(http, ada["key"])
    until(lambda: http.get("/api/lobby", headers={"If-None-Match": etag}).status_code == 200)
    fresh = http.get("/api/lobby", headers={"If-None-Match": etag})
    assert fresh.headers["etag"] != etag and len(fresh.json()["open"]) == 1


def friend_game(http: httpx.Client, live: LiveServer, **body: Any,
                ) -> tuple[str, Player, Player, dict[str, Any]]:
    created = http.post("/api/games", json={"game": "hill218", "mode": "friend", **body}).json()
    south = Player(live.ws_url(created["id"], created["token"]), 1)
    north = Player(live.ws_url(created["id"], token_of(created["invite"])), 2)
    south.next_state()
    assert south.next_state()["status"] == "playing"  # North came
    north.next_state()
    return created["id"], south, north, created


def test_the_players_chat_and_spectators_never_see_it(live: LiveServer,
                                                      http: httpx.Client) -> None:
    game_id, south, north, created = friend_game(http, live)
    spectator = Player(live.ws_url(game_id), 3)
    spectator.next_state()
    markup = "<img src=x onerror=alert(1)>  two\n lines\u202e"
    south.send(type="chat", text=markup)
    for seat in (south, north):
        message = next_of(seat, "chat")
        assert message["replace"] is False and message["muted"] is False
        [line] = message["lines"]
        # kept as text (the client shows it as text): whitespace runs and bidi overrides go
        assert line["seat"] == 0 and line["text"] == "<img src=x onerror=alert(1)> two lines"
    for text, refusal in (("   ", "empty"), ("x" * (CHAT_MAX_LENGTH + 1), "at most")):
        south.send(type="chat", text=text)
        assert refusal in next_of(south, "error")["message"]
    spectator.send(type="chat", text="hello")
    assert "spectators cannot chat" in next_of(spectator, "error")["message"]

    # North mutes South: the chat North reads is sent again without South's lines
    north.send(type="mute", muted=True)
    assert next_of(north, "chat") == {"type": "chat", "lines": [], "muted": True,
                                      "replace": True}
    south.send(type="chat", text="are you there?")
    assert next_of(south, "chat")["lines"][0]["text"] == "are you there?"
    north.send(type="chat", text="quiet")  # North's own line is the next chat it gets
    assert [line["text"] for line in next_of(north, "chat")["lines"]] == ["quiet"]
    assert next_of(south, "chat")["lines"][0]["text"] == "quiet"

    # kept with the game: a new connection is sent the chat as its seat reads it
    again = Player(live.ws_url(game_id, created["token"]), 4)
    again.next_state()
    history = next_of(again, "chat")
    assert history["replace"] is True and [line["text"] for line in history["lines"]] == [
        "<img src=x onerror=alert(1)> two lines", "are you there?", "quiet"]
    north.send(type="mute", muted=False)
    assert len(next_of(north, "chat")["lines"]) == 3
    for player in (south, north, again):
        player.close()
    spectator.send(type="resign")  # something for the spectator to answer last
    next_of(spectator, "error")
    spectator.close()
    assert all(m["type"] != "chat" for m in spectator.messages)
    check_secrecy(live.database_url, game_id, None, spectator.messages, whole_turn=False)


def test_no_chat_against_the_computer_or_on_one_screen(live: LiveServer,
                                                       http: httpx.Client) -> None:
    for mode in ("ai", "hotseat"):
        created = http.post("/api/games", json={"mode": mode, "ai_level": "easy"}).json()
        player = Player(live.ws_url(created["id"], created["token"]), 1)
        player.send(type="chat", text="hello")
        assert "no chat" in next_of(player, "error")["message"]
        player.send(type="mute", muted=True)
        assert "no chat" in next_of(player, "error")["message"]
        player.close()


def test_chat_lines_are_rate_limited(database_url: str) -> None:
    settings = UNLIMITED.model_copy(update={"chat_per_second": 2})
    with LiveServer(database_url, settings=settings) as live, \
            httpx.Client(base_url=live.base, timeout=TIMEOUT) as http:
        _, south, north, _ = friend_game(http, live)
        for n in range(3):
            south.send(type="chat", text=f"line {n}")
        for n in range(2):
            assert next_of(south, "chat")["lines"][0]["text"] == f"line {n}"
        assert "too many chat lines" in next_of(south, "error")["message"]
        south.close()
        north.close()


def test_a_rematch_is_offered_by_one_seat_and_accepted_by_the_other(
        live: LiveServer, http: httpx.Client) -> None:
    game_id, south, north, created = friend_game(http, live)
    north_token = north.seat_token
    assert north_token is not None
    rematch = f"/api/games/{game_id}/rematch"
    early = http.post(rematch, json={"token": created["token"]})
    assert early.status_code == 409 and "over" in early.json()["error"]
    south.send(type="resign")
    assert next_of(north, "state")["status"] == "over"
    assert http.post(rematch, json={"token": "not-a-seat"}).status_code == 403
    assert http.post(rematch, json={}).status_code == 422

    offered = http.post(rematch, json={"token": north_token})
    assert offered.status_code == 201, offered.text
    new = offered.json()
    assert new["seat"] == 0 and new["mode"] == "friend"  # North was seat 1: swapped
    for seat in (south, north):  # the offer reaches both seats
        while (state := next_of(seat, "state"))["rematch"] is None:
            assert state["status"] == "over"
        assert state["rematch"] == new["id"]
    again = http.post(rematch, json={"token": north_token})
    assert again.status_code == 409 and "offered" in again.json()["error"]
    waiting = http.get(f"/api/games/{new['id']}", params={"token": new["token"]}).json()
    assert waiting["status"] == "waiting"

    accepted = http.post(rematch, json={"token": created["token"]})
    assert accepted.status_code == 201, accepted.text
    assert accepted.json()["id"] == new["id"] and accepted.json()["seat"] == 1
    assert http.post(rematch, json={"token": created["token"]}).status_code == 409
    state = http.get(f"/api/games/{new['id']}", params={"token": accepted.json()["token"]})
    assert state.json()["status"] == "playing" and state.json()["seat"] == 1
    spectator = http.get(f"/api/games/{game_id}").json()
    assert spectator["rematch"] == new["id"] and spectator["legal"] == []
    for player in (south, north):
        player.close()

    ai = http.post("/api/games", json={"mode": "ai", "ai_level": "easy"}).json()
    refused = http.post(f"/api/games/{ai['id']}/rematch", json={"token": ai["token"]})
    assert refused.status_code == 409


def test_a_rematch_of_an_open_game_keeps_its_players(live: LiveServer,
                                                     http: httpx.Client) -> None:
    ada, bob, cy = (sign_up(http, name) for name in ("Ada", "Bob", "Cyd"))
    posted = post_open(http, ada["key"], seat=0, game="hill218")
    taken = http.post(f"/api/games/{posted['id']}/take", headers=bearer(bob["key"])).json()
    poster = Player(live.ws_url(posted["id"], posted["token"]), 1)
    poster.next_state()
    poster.send(type="resign")
    next_of(poster, "state")
    rematch = f"/api/games/{posted['id']}/rematch"
    new = http.post(rematch, json={"token": taken["token"]}).json()
    assert new["seat"] == 0 and new["mode"] == "open"
    # the other seat is Ada's to accept: not listed, and no one else may take it
    kept = http.post(f"/api/games/{new['id']}/take", headers=bearer(cy["key"]))
    assert kept.status_code == 409
    assert lobby(http)["open"] == []
    assert http.post(rematch, json={"token": posted["token"]}).status_code == 201
    until(lambda: [g["id"] for g in lobby(http)["live"]] == [new["id"]])
    assert lobby(http)["live"][0]["players"] == ["Bob", "Ada"]
    poster.close()


def test_the_lobby_and_chat_messages_are_strict(live: LiveServer, http: httpx.Client) -> None:
    game_id, south, north, _ = friend_game(http, live)
    for bad, refusal in (({"type": "chat"}, "text"), ({"type": "chat", "text": 5}, "text"),
                         ({"type": "chat", "text": "x", "to": 1}, "to"),
                         ({"type": "mute", "muted": "yes"}, "muted")):
        south.ws.send(json.dumps(bad))
        assert refusal in next_of(south, "error")["message"]
    bad_body = http.post(f"/api/games/{game_id}/rematch", content=b"{not json")
    assert bad_body.status_code == 400
    too_big = http.post(f"/api/games/{game_id}/rematch",
                        content=json.dumps({"token": "x" * 100_000}).encode())
    assert too_big.status_code == 413
    for player in (south, north):
        player.close()


def test_the_lobby_and_rematches_are_under_the_client_limits(database_url: str) -> None:
    """The listing counts as a request (polling has a rate), a rematch as a new game."""
    settings = UNLIMITED.model_copy(update={"requests_per_minute": 3, "games_per_minute": 1})
    with LiveServer(database_url, settings=settings) as live, \
            httpx.Client(base_url=live.base, timeout=TIMEOUT) as http:
        created = http.post("/api/games", json={"mode": "friend"})
        assert created.status_code == 201
        rematch = http.post(f"/api/games/{created.json()['id']}/rematch",
                            json={"token": created.json()["token"]})
        assert rematch.status_code == 429 and "too many new games" in rematch.json()["error"]
        assert http.get("/api/lobby").status_code == 200  # the third request this minute
        answer = http.get("/api/lobby")
        assert answer.status_code == 429 and "Retry-After" in answer.headers
