"""The table server attacked as a stranger on the internet would attack it (docs/security.md).

One real ``warboard serve`` process with its default limits serves the whole module, over real
sockets. Each test speaks from loopback addresses of its own (127.0.0.x: Linux answers the whole
127/8 range), so each is a client with its own quotas. Every attack is refused with a clear error,
the server stays responsive (``/api/health`` answers after each), and when the module ends its log
holds no traceback.
"""

from __future__ import annotations

import json
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from server_helpers import TIMEOUT, ServerProcess, free_port

HEALTHY = 5.0  # seconds within which /api/health must answer, during and after every attack
# a normal player's pause before each play: against an easy computer that answers at once, a
# player who never paused would itself be over the 20 messages a second one address may send
PLAYER_THINKS = 0.1


class Server(ServerProcess):
    """A ``warboard serve`` process on a free port, and its log."""

    def __init__(self, folder: Path) -> None:
        port = free_port()
        super().__init__([sys.executable, "-m", "warboard.cli", "serve", "--port", str(port),
                          "--database-url", f"sqlite:///{folder / 'abuse.db'}",
                          "--ai-workers", "1"], folder, port)

    def http(self, address: str) -> httpx.Client:
        """An HTTP client speaking from ``address``."""
        return httpx.Client(base_url=self.base, timeout=TIMEOUT,
                            transport=httpx.HTTPTransport(local_address=address))

    def ws(self, address: str, game_id: str, token: str | None = None) -> ClientConnection:
        """A WebSocket to a game, from ``address``."""
        query = f"?token={token}" if token else ""
        return connect(f"ws://127.0.0.1:{self.port}/ws/games/{game_id}{query}",
                       open_timeout=TIMEOUT, max_size=None, source_address=(address, 0))

    def healthy(self) -> None:
        """``/api/health`` answers, from an address no test floods."""
        with self.http("127.0.0.254") as client:
            assert client.get("/api/health", timeout=HEALTHY).json() == {"ok": True}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    live = Server(tmp_path_factory.mktemp("abuse"))
    yield live
    log = live.stop()
    failure = log.find("Traceback")
    assert failure < 0, log[max(0, failure - 300):failure + 4000]


def receive(ws: ClientConnection) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.recv(timeout=TIMEOUT))
    return message


def next_state(ws: ClientConnection) -> dict[str, Any]:
    while (message := receive(ws))["type"] != "state":
        assert message["type"] in ("thinking", "seat"), message
    return message


def next_error(ws: ClientConnection) -> str:
    while (message := receive(ws))["type"] != "error":
        assert message["type"] in ("thinking", "state"), message
    return str(message["message"])


def play(ws: ClientConnection, state: dict[str, Any], **changes: Any) -> None:
    ws.send(json.dumps({"type": "play", "action": state["legal"][0],
                        "version": state["version"], "request_id": uuid.uuid4().hex,
                        **changes}))


def refused_close(ws: ClientConnection) -> tuple[str, int | None]:
    """The error a refused WebSocket gets, and its close code."""
    message = receive(ws)
    assert message["type"] == "error", message
    with pytest.raises(ConnectionClosed) as closed:
        ws.recv(timeout=TIMEOUT)
    return str(message["message"]), closed.value.rcvd.code if closed.value.rcvd else None


def token_of(link: str) -> str:
    return link.split("#token=")[1]


# ----------------------------------------------------------------------------- the invite

def test_an_invite_works_once_between_two_real_clients(server: Server) -> None:
    with server.http("127.0.0.11") as host, server.http("127.0.0.12") as friend:
        created = host.post("/api/games", json={"game": "hill218", "mode": "friend"}).json()
        game_id, invite = created["id"], token_of(created["invite"])
        first = friend.get(f"/api/games/{game_id}", params={"token": invite}).json()
        mine = first["seat_token"]
        assert first["seat"] == 1 and mine not in (None, invite, created["token"])
        assert first["status"] == "playing"

        # the creator (or anyone) holding the invite gets nothing from it any more
        again = host.get(f"/api/games/{game_id}", params={"token": invite})
        assert again.status_code == 403 and "works once" in again.json()["error"]
        refused = host.get(f"/api/games/{game_id}/record", params={"token": invite})
        assert refused.status_code == 403
        text, code = refused_close(server.ws("127.0.0.11", game_id, invite))
        assert code == 1008 and "works once" in text

        # the friend's own token plays, over HTTP and the WebSocket, and is not sent again
        view = friend.get(f"/api/games/{game_id}", params={"token": mine}).json()
        assert view["seat"] == 1 and "seat_token" not in view and "hand" in view["view"]
        south = server.ws("127.0.0.11", game_id, created["token"])
        north = server.ws("127.0.0.12", game_id, mine)
        state = next_state(south)
        assert state["legal"] and next_state(north)["seat"] == 1
        play(south, state)
        assert next_state(north)["version"] > state["version"]
        south.close()
        north.close()
    server.healthy()


def test_two_browsers_racing_for_one_invite_get_one_seat(server: Server) -> None:
    with server.http("127.0.0.13") as host:
        created = host.post("/api/games", json={"game": "ogre218", "mode": "friend"}).json()
    invite = token_of(created["invite"])
    answers: list[httpx.Response] = []

    def open_invite(address: str) -> None:
        with server.http(address) as client:
            answers.append(client.get(f"/api/games/{created['id']}", params={"token": invite}))

    racers = [threading.Thread(target=open_invite, args=(f"127.0.0.{14 + i}",))
              for i in range(4)]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join()
    assert sorted(a.status_code for a in answers) == [200, 403, 403, 403]
    winner = next(a.json() for a in answers if a.status_code == 200)
    assert winner["seat"] == 1 and winner["seat_token"]


def test_an_invite_opened_first_over_the_websocket_sends_the_seat_token(server: Server) -> None:
    with server.http("127.0.0.18") as host:
        created = host.post("/api/games", json={"game": "hill218", "mode": "friend"}).json()
    invite = token_of(created["invite"])
    with server.ws("127.0.0.18", created["id"], invite) as ws:
        seat = receive(ws)
        assert seat["type"] == "seat" and seat["seat"] == 1 and seat["seat_token"]
        assert next_state(ws)["seat"] == 1
    with server.ws("127.0.0.18", created["id"], seat["seat_token"]) as ws:
        assert receive(ws)["type"] == "state"


# ----------------------------------------------------------------------------- hostile input

HOSTILE_BODIES = {
    "30,000 nested brackets": "[" * 30_000 + "]" * 30_000,
    "a 10,000-level object": '{"a":' * 10_000 + "1" + "}" * 10_000,
    "a 5,000-digit number": '{"game": "hill218", "seat": ' + "9" * 5_000 + "}",
    "an enormous float": '{"game": "hill218", "seat": 1e999}',
    "NaN": '{"game": "hill218", "seat": NaN}',
    "a list for the game": '{"game": [], "mode": "ai"}',
    "a list for the options": '{"game": "hill218", "options": []}',
    "options of the wrong type": '{"game": "ogre218", "options": {"damaged_ogres": "x"}}',
    "a scenario path": '{"game": "holdtheline", "options": {"scenario": "/etc/passwd"}}',
    "a device as a scenario": '{"game": "holdtheline", "options": {"scenario": "/dev/zero"}}',
    "a scenario of the wrong type": '{"game": "holdtheline", "options": {"scenario": []}}',
    "optional rules that are a list": '{"game": "holdtheline", "options": {"options": []}}',
    "a scenario name with a NUL": '{"game": "holdtheline", "options": {"scenario": "a\\u0000"}}',
    "not UTF-8": b'{"game": "\xff\xfe"}',
    "not JSON": "{game: hill218",
}


@pytest.mark.parametrize("name", HOSTILE_BODIES)
def test_hostile_bodies_get_a_4xx_with_a_clear_error(server: Server, name: str) -> None:
    with server.http("127.0.0.21") as client:
        answer = client.post("/api/games", content=HOSTILE_BODIES[name],
                             headers={"Content-Type": "application/json"})
    assert 400 <= answer.status_code < 500, (answer.status_code, answer.text)
    assert answer.json()["error"], answer.text
    server.healthy()


def hostile_frames(state: dict[str, Any]) -> dict[str, str]:
    version, action = state["version"], json.dumps(state["legal"][0])

    def message(**fields: str) -> str:
        """A play message with these fields as raw JSON text."""
        parts = {"type": '"play"', "request_id": f'"{uuid.uuid4().hex}"',
                 "version": str(version), "action": action, **fields}
        return "{" + ", ".join(f'"{key}": {value}' for key, value in parts.items()) + "}"

    return {
        "30,000 nested brackets": "[" * 30_000 + "]" * 30_000,
        "a 10,000-level action": message(action='{"a":' * 10_000 + "1" + "}" * 10_000),
        "a 6,000-level action": message(action='{"a":' * 6_000 + "1" + "}" * 6_000),
        "a 5,000-digit version": message(version="7" * 5_000),
        "an action type that is a list": message(action='{"type": []}'),
        "an action type that is an object": message(action='{"type": {}, "unit": []}'),
        "an action that is a list": message(action="[[[]]]"),
        "a version that is a string": message(version='"1"'),
        "a message type that is an object": '{"type": {"play": 1}}',
    }


@pytest.mark.parametrize("game", ["hill218", "holdtheline"])
def test_hostile_frames_get_errors_and_the_socket_stays_usable(server: Server,
                                                               game: str) -> None:
    with server.http("127.0.0.22") as client:
        created = client.post("/api/games", json={"game": game, "mode": "hotseat"}).json()
    tokens = created["tokens"]
    sockets = {seat: server.ws("127.0.0.22", created["id"], tokens[str(seat)]) for seat in (0, 1)}
    states = {seat: next_state(ws) for seat, ws in sockets.items()}
    seat = next(s for s, st in states.items() if st["legal"])
    ws, state = sockets[seat], states[seat]
    for name, frame in hostile_frames(state).items():
        ws.send(frame)
        assert next_error(ws), name
        time.sleep(0.06)  # within the message rate
    ws.send(b"\x00binary")
    assert "text" in next_error(ws)
    play(ws, state)  # the same socket still plays
    after = next_state(ws)
    assert after["version"] > state["version"]
    for socket in sockets.values():
        socket.close()
    server.healthy()


# ----------------------------------------------------------------------------- limits

def test_game_creation_is_rate_limited_per_client(server: Server) -> None:
    body = {"game": "hill218", "mode": "hotseat"}
    with server.http("127.0.0.31") as flooder, server.http("127.0.0.32") as other:
        answers = [flooder.post("/api/games", json=body) for _ in range(31)]
        assert [a.status_code for a in answers[:30]] == [201] * 30
        refused = answers[30]
        assert refused.status_code == 429 and "at most 30 a minute" in refused.json()["error"]
        assert 1 <= int(refused.headers["Retry-After"]) <= 60
        assert other.post("/api/games", json=body).status_code == 201  # another client
    server.healthy()


def test_a_proxy_header_from_an_untrusted_address_names_nobody(server: Server) -> None:
    """Only the trusted proxies (127.0.0.1 by default) may name the client: a stranger's
    ``X-Forwarded-For`` does not buy it a fresh quota."""
    body = {"game": "hill218", "mode": "hotseat"}
    with server.http("127.0.0.33") as client:
        statuses = [client.post("/api/games", json=body,
                                headers={"X-Forwarded-For": f"10.9.9.{i}"}).status_code
                    for i in range(31)]
    assert statuses.count(429) == 1 and statuses[-1] == 429


def test_games_against_the_computer_are_capped_per_client(server: Server) -> None:
    body = {"game": "hill218", "mode": "ai", "ai_level": "easy", "seat": 1}
    with server.http("127.0.0.34") as client:
        answers = [client.post("/api/games", json=body) for _ in range(5)]
        assert [a.status_code for a in answers] == [201, 201, 201, 201, 429]
        assert "games against the computer" in answers[4].json()["error"]
        assert "Retry-After" in answers[4].headers
        # a friend game is not a game against the computer; resigning one frees a place
        assert client.post("/api/games", json={"mode": "friend"}).status_code == 201
        with server.ws("127.0.0.34", answers[0].json()["id"], answers[0].json()["token"]) as ws:
            ws.send(json.dumps({"type": "resign"}))
            while next_state(ws)["status"] != "over":
                pass
        assert client.post("/api/games", json=body).status_code == 201
    server.healthy()


def test_a_message_flood_is_slowed_and_the_socket_stays(server: Server) -> None:
    """60 messages at once: 20 a second are read; the first one past the rate is refused, and
    the socket is not read again until the second is over — the flood is slowed, not
    answered as fast as it is sent."""
    with server.http("127.0.0.35") as client:
        created = client.post("/api/games", json={"game": "hill218", "mode": "hotseat"}).json()
    with server.ws("127.0.0.35", created["id"], created["token"]) as ws:
        state = next_state(ws)
        started = time.monotonic()
        for _ in range(60):
            ws.send(json.dumps({"type": "undo", "version": state["version"],
                                "request_id": uuid.uuid4().hex}))
        errors = [next_error(ws) for _ in range(60)]
        slowed = [e for e in errors if e.startswith("too many messages")]
        assert 1 <= len(slowed) <= 3 and "try again in" in slowed[0]
        assert not errors[0].startswith("too many")
        assert time.monotonic() - started >= 1.0  # held back at least once for a second
        time.sleep(1.1)  # the window has passed: the socket is served at once
        if state["legal"]:
            play(ws, state)
            assert next_state(ws)["version"] > state["version"]
        else:
            ws.send(json.dumps({"type": "undo", "version": state["version"],
                                "request_id": "after"}))
            assert not next_error(ws).startswith("too many")
    server.healthy()


def test_a_client_may_hold_only_so_many_sockets(server: Server) -> None:
    with server.http("127.0.0.36") as client:
        created = client.post("/api/games", json={"game": "hill218", "mode": "hotseat"}).json()
    held = [server.ws("127.0.0.36", created["id"]) for _ in range(32)]
    for ws in held:
        next_state(ws)
    text, code = refused_close(server.ws("127.0.0.36", created["id"]))
    assert code == 1008 and "too many connections" in text
    with server.ws("127.0.0.37", created["id"]) as other:  # another client is let in
        assert next_state(other)["id"] == created["id"]
    held.pop().close()
    deadline = time.monotonic() + TIMEOUT
    while True:  # the server counts the socket closed once it has seen the close
        with server.ws("127.0.0.36", created["id"]) as again:
            first = receive(again)
        if first["type"] == "state":
            break
        assert "too many connections" in first["message"] and time.monotonic() < deadline
        time.sleep(0.1)
    for ws in held:
        ws.close()


def test_a_flooding_client_leaves_a_normal_player_responsive(server: Server) -> None:
    """A bounded flood (3 s of game creation and WebSocket messages as fast as one client can
    send them) while another client plays against the computer: every one of the player's
    plays is answered, and health answers throughout. The latency target under a flood is
    measured by ``warboard loadtest --flood`` (docs/load.md), not here."""
    stop = time.monotonic() + 3.0
    flood_counts = {"created": 0, "refused": 0}

    def flood() -> None:
        """Expert games in which the computer moves first, and messages never read (the
        server drops a socket that falls too far behind: it connects again)."""
        with server.http("127.0.0.41") as client:
            created = client.post("/api/games", json={"mode": "hotseat"}).json()
            while time.monotonic() < stop:
                with server.ws("127.0.0.41", created["id"], created["token"]) as ws:
                    try:
                        while time.monotonic() < stop:
                            answer = client.post("/api/games", json={
                                "mode": "ai", "ai_level": "expert", "seat": 1})
                            flood_counts["created" if answer.status_code == 201
                                         else "refused"] += 1
                            for _ in range(20):
                                ws.send('{"type": "undo", "version": 0, "request_id": "x"}')
                    except ConnectionClosed:
                        pass

    flooder = threading.Thread(target=flood)
    flooder.start()
    try:
        with server.http("127.0.0.42") as client:
            created = client.post("/api/games", json={"game": "hill218", "mode": "ai",
                                                      "ai_level": "easy"}).json()
            with server.ws("127.0.0.42", created["id"], created["token"]) as ws:
                plays = 0
                while time.monotonic() < stop or plays < 3:
                    state = next_state(ws)
                    if state["status"] == "over":
                        break
                    if state["legal"]:
                        time.sleep(PLAYER_THINKS)
                        play(ws, state)
                        plays += 1
                        server.healthy()
    finally:
        flooder.join()
    assert plays >= 3
    assert flood_counts["created"] <= 30 and flood_counts["refused"] > 0
    server.healthy()
