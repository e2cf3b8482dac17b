"""Several ``warboard serve`` processes on one PostgreSQL database (docs/scaling.md).

Two real server processes share a database created for this module (and dropped afterwards) on
postgresql://root@127.0.0.1:5432; the tests skip, saying why, when psycopg is missing or that
server is not there (``.ci/run`` installs and starts both). Seats of one game are connected to
different processes: every move made on one reaches the other's clients, each seeing only its
own view; the computer's replies are stored exactly once whichever process the human uses; of two
plays racing on both processes exactly one is accepted. In-process tests pin down what a process
that missed a change does when it writes.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from test_server import (
    TIMEOUT,
    Player,
    check_secrecy,
    free_port,
    group_alive,
    start_serve,
    token_of,
    true_states,
    ws_url,
)
from test_server_lobby import next_of, until
from warboard.server import ratings
from warboard.server.ai_runner import AIRunner
from warboard.server.cluster import Notice, Peers, PostgresPeers, lock_key, peers_for, read_notice
from warboard.server.messages import CreateGame, Refused
from warboard.server.storage import CHANNEL, ChatLine, GameData, Storage, notice_payload
from warboard.server.tables import Tables

ADMIN = "host=127.0.0.1 port=5432 user=root dbname=test"
URL = "postgresql+psycopg://root@127.0.0.1:5432/{name}"
MOVES = 12


# ----------------------------------------------------------------------------- fixtures

def create_database(admin: Any) -> str:
    """A new database's name (skipping, saying why, when this user may not create one)."""
    import psycopg

    name = f"warboard_test_{uuid.uuid4().hex[:12]}"
    try:
        admin.execute(f'CREATE DATABASE "{name}"')
    except psycopg.errors.InsufficientPrivilege as exc:
        admin.close()
        pytest.skip(f"several server processes: root may not create a database ({exc})")
    return name


def admin_connection() -> Any:
    """An autocommit connection to the server's ``test`` database, or a skip saying why."""
    try:
        import psycopg
    except ImportError:
        pytest.skip("several server processes need psycopg 3: pip install -e '.[postgres]' "
                    "(.ci/run does)")
    try:
        return psycopg.connect(ADMIN, connect_timeout=3, autocommit=True)
    except psycopg.OperationalError as exc:
        pytest.skip(f"several server processes need PostgreSQL at 127.0.0.1:5432 as root "
                    f"(.ci/run starts it): {exc}".strip())


@pytest.fixture(scope="module")
def database_url() -> Iterator[str]:
    """A database of this module's own, dropped afterwards."""
    admin = admin_connection()
    name = create_database(admin)
    try:
        yield URL.format(name=name)
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


@dataclass
class Server:
    name: str
    port: int
    folder: Path
    process: subprocess.Popen[bytes]

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws(self, game_id: str, token: str | None = None) -> str:
        return ws_url(self.port, game_id, token)

    def output(self) -> str:
        return (self.folder / "serve.out").read_text(errors="replace")

    def stop(self) -> None:
        if group_alive(self.process.pid):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(TIMEOUT)


@pytest.fixture(scope="module")
def servers(database_url: str,
            tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Server]]:
    """Processes A and B serving the same database on ports of their own."""
    started: list[Server] = []

    def start(name: str) -> Server:
        folder, port = tmp_path_factory.mktemp(f"serve_{name}"), free_port()
        server = Server(name, port, folder, start_serve(port, database_url, folder))
        started.append(server)
        return server

    try:
        with ThreadPoolExecutor(2) as pool:  # together, on the empty database
            a, b = pool.map(start, ("a", "b"))
        yield a, b
    finally:
        for server in started:
            server.stop()


def quiet(*servers: Server) -> None:
    """No server wrote a traceback, or found its computer move taken by another's."""
    for server in servers:
        out = server.output()
        assert "Traceback" not in out, out
        assert "the computer's move was not stored" not in out, out


def create(server: Server, **body: Any) -> dict[str, Any]:
    answer = httpx.post(f"{server.base}/api/games", json=body, timeout=TIMEOUT)
    assert answer.status_code == 201, answer.text
    return answer.json()


def next_state_where(player: Player, test: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    deadline = time.monotonic() + TIMEOUT
    while not test(state := player.next_state()):
        assert time.monotonic() < deadline, "the awaited state did not come"
    return state


def state_versions(player: Player) -> list[int]:
    return [m["version"] for m in player.messages if m["type"] == "state"]


def stored_events(database_url: str, game_id: str) -> list[dict[str, Any]]:
    """The game's events, checked by replaying them (each must fit the seat to act)."""
    return true_states(database_url, game_id)[1]


def stored_data(database_url: str, game_id: str) -> GameData:
    storage = Storage(database_url)
    try:
        data = storage.load_game(game_id)
    finally:
        storage.close()
    assert data is not None
    return data


def caught_up(player: Player, version: int) -> dict[str, Any]:
    """The first state after ``version`` this player got (reading on if it did not yet)."""
    for message in player.messages:
        if message["type"] == "state" and message["version"] > version:
            return message
    return next_state_where(player, lambda st: st["version"] > version)


# ----------------------------------------------------------------------------- two processes

def test_the_server_says_that_it_shares_updates(servers: tuple[Server, Server]) -> None:
    for server in servers:
        assert f"PostgreSQL LISTEN/NOTIFY, channel {CHANNEL}" in server.output()


def test_a_friend_game_across_two_processes(servers: tuple[Server, Server],
                                            database_url: str) -> None:
    a, b = servers
    created = create(a, game="hill218", mode="friend", seat=0)
    game_id = created["id"]
    south = Player(a.ws(game_id, created["token"]), 1)  # seat 0 on A
    assert south.next_state()["status"] == "waiting"
    spectator = Player(b.ws(game_id), 0)  # on B, like North
    north = Player(b.ws(game_id, token_of(created["invite"])), 2)  # seat 1 on B
    players = {0: south, 1: north}
    # North's arrival, stored by B, reaches A's client
    latest = {0: next_state_where(south, lambda s: s["status"] == "playing"),
              1: next_state_where(north, lambda s: s["status"] == "playing")}
    moves: list[int] = []
    for _ in range(MOVES):
        version = latest[0]["version"]
        assert latest[1]["version"] == version
        mover = next(s for s, state in latest.items() if state["legal"])
        players[mover].play(latest[mover])
        latest = {s: next_state_where(p, lambda st, v=version: st["version"] > v)
                  for s, p in players.items()}
        assert latest[0]["version"] == latest[1]["version"]
        assert latest[0]["last"] is None or latest[0]["last"]["seat"] == mover
        moves.append(latest[0]["version"])
    next_state_where(spectator, lambda s: s["version"] == moves[-1])
    stored = stored_events(database_url, game_id)
    assert len(stored) == moves[-1] and sum(e["seat"] is not None for e in stored) == MOVES

    for seat, player in ((0, south), (1, north), (None, spectator)):
        versions = state_versions(player)
        assert versions == sorted(versions), versions  # in order
        assert set(moves) <= set(versions)  # every move, wherever it was made
        assert not [m for m in player.messages if m["type"] == "error"]
        check_secrecy(database_url, game_id, seat, player.messages)
        player.close()
    # and both processes answer the same over HTTP
    assert north.seat_token is not None  # the invite is spent: the seat has its own token
    for token in (created["token"], north.seat_token):
        views = [httpx.get(f"{s.base}/api/games/{game_id}", params={"token": token},
                           timeout=TIMEOUT).json() for s in servers]
        assert views[0] == views[1] and views[0]["version"] == moves[-1]
    quiet(a, b)


def test_the_computer_replies_exactly_once(servers: tuple[Server, Server],
                                           database_url: str) -> None:
    a, b = servers
    # the computer holds seat 0 and acts first: A takes its first turn at creation, while the
    # human's process B loads the game; then B takes the turns its human's plays hand over
    created = create(a, game="hill218", options={"quick_start": True}, mode="ai",
                     ai_level="easy", seat=1)
    game_id = created["id"]
    spectator = Player(a.ws(game_id), 3)  # keeps the game live in A, which hears every move
    stop = threading.Event()

    def poll_a() -> None:  # each look at the game in A also asks whether the computer is due
        with httpx.Client(base_url=a.base, timeout=TIMEOUT) as client:
            while not stop.is_set():
                client.get(f"/api/games/{game_id}")
                time.sleep(0.02)

    poller = threading.Thread(target=poll_a, daemon=True)
    poller.start()
    try:
        human = Player(b.ws(game_id, created["token"]), 4)
        final = human.play_out()  # no error message on the way
    finally:
        stop.set()
        poller.join(TIMEOUT)
    assert final["status"] == "over" and final["players"] == ["ai:easy", "human"]
    stored = stored_events(database_url, game_id)  # replayed: each event fits the seat to act
    assert len(stored) == final["version"]
    versions = state_versions(human)
    assert versions == sorted(versions)
    next_state_where(spectator, lambda s: s["status"] == "over")
    # one decision per turn in one process: each thinking process tells every client once
    decisions = sum(e["seat"] == 0 for e in stored)
    for player in (human, spectator):
        thinking = [m for m in player.messages if m["type"] == "thinking"]
        assert all(m["seat"] == 0 for m in thinking)
        assert 0 < len(thinking) <= decisions, (len(thinking), decisions)
    check_secrecy(database_url, game_id, None, spectator.messages)
    human.close()
    spectator.close()
    quiet(a, b)


def test_two_plays_racing_on_two_processes_one_is_accepted(servers: tuple[Server, Server],
                                                          database_url: str) -> None:
    a, b = servers
    created = create(a, game="hill218", mode="hotseat")
    game_id = created["id"]
    # each seat is open on both processes; the seat to act sends a play through both at once
    clients = {(s, server.name): Player(server.ws(game_id, token), 10 + i)
               for i, (s, token, server) in enumerate(
                   (s, t, server) for s, t in created["tokens"].items() for server in servers)}
    latest = {key: c.next_state() for key, c in clients.items()}
    outcomes: list[str] = []
    for round_ in range(8):
        version = latest["0", "a"]["version"]
        assert {s["version"] for s in latest.values()} == {version}
        seat = next(s for (s, _), state in latest.items() if state["legal"])
        legal = latest[seat, "a"]["legal"]
        rivals = [clients[seat, "a"], clients[seat, "b"]]
        actions = [legal[0], legal[-1]]
        ids = [f"r{round_}a", f"r{round_}b"]
        for client, action, request_id in zip(rivals, actions, ids, strict=True):
            client.send(type="play", action=action, version=version, request_id=request_id)
        deadline = time.monotonic() + TIMEOUT
        while len(stored := stored_data(database_url, game_id).events) == version:
            assert time.monotonic() < deadline, "neither play was stored"
            time.sleep(0.02)
        decisions = [e for e in stored[version:] if e.seat is not None]
        assert len(decisions) == 1 and decisions[0].seat == int(seat)  # exactly one accepted
        winner = ids.index(decisions[0].request_id)
        assert decisions[0].action == actions[winner]
        loser = rivals[1 - winner]
        while (message := loser.receive())["type"] != "error":
            pass
        assert message["request_id"] == ids[1 - winner], message
        outcomes.append(message["message"])
        latest = {key: caught_up(c, version) for key, c in clients.items()}
        assert len({st["version"] for st in latest.values()}) == 1
        assert len(stored) == latest["0", "a"]["version"]
    for text in outcomes:  # the loser was told: stale, or moved on elsewhere
        assert "stale version" in text or "moved on" in text or "not your turn" in text, text
    for client in clients.values():
        client.close()
    quiet(a, b)


def test_a_lost_listening_connection_is_restored(servers: tuple[Server, Server],
                                                 database_url: str) -> None:
    a, b = servers
    created = create(a, game="ogre218", options={"quick_start": True}, mode="friend")
    game_id = created["id"]
    south = Player(a.ws(game_id, created["token"]), 5)
    north = Player(b.ws(game_id, token_of(created["invite"])), 6)
    latest = {0: next_state_where(south, lambda s: s["status"] == "playing"), 1: north.next_state()}

    admin = admin_connection()
    database = database_url.rsplit("/", 1)[1]
    ended = admin.execute(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
        "WHERE datname = %s AND query = %s", (database, f"LISTEN {CHANNEL}")).fetchall()
    admin.close()
    assert len(ended) == 2  # each process's listening connection
    players = {0: south, 1: north}
    for _ in range(3):  # moves made while or after they listen again all arrive
        version = latest[0]["version"]
        mover = next(s for s, state in latest.items() if state["legal"])
        players[mover].play(latest[mover])
        latest = {s: next_state_where(p, lambda st, v=version: st["version"] > v)
                  for s, p in players.items()}
        assert latest[0]["version"] == latest[1]["version"]
    for player in players.values():
        player.close()
    deadline = time.monotonic() + TIMEOUT
    while not all(f"listening to {CHANNEL} again" in s.output() for s in servers):
        assert time.monotonic() < deadline, "a server did not listen again"
        time.sleep(0.1)
    quiet(a, b)


# ----------------------------------------------------------------------------- in one process

def test_a_process_that_missed_a_play_catches_up_when_its_own_is_refused(
        database_url: str) -> None:
    """Process B did not hear of A's play (it is not listening): its play at the old version
    conflicts in the database, so it is refused with a "moved on" error, B's table reads the
    game again and its client gets the current state."""

    class Client:
        def __init__(self, seat: int) -> None:
            self.seat = seat
            self.sent_log = None  # the whole log in every state
            self.messages: list[dict[str, Any]] = []

        def send(self, text: str) -> None:
            self.messages.append(json.loads(text))

    async def scenario() -> None:
        first, second = Storage(database_url), Storage(database_url)
        ai = AIRunner(0)
        here, there = (Tables(s, ai, PostgresPeers(s)) for s in (first, second))
        created = await here.create(CreateGame(game="hill218", mode="hotseat"))
        table_a, table_b = await here.get(created.id), await there.get(created.id)
        if table_b._refresh_task is not None:
            await table_b._refresh_task  # its catch-up after loading: done before A plays
        seat = table_a.state.current_player()
        client = Client(seat)
        table_b.subscribe(client)
        legal = table_a.snapshot(seat)["legal"]
        version = table_a.version
        await table_a.play(seat, legal[0], version, "from-a")

        with pytest.raises(Refused, match="moved on") as refused:
            await table_b.play(seat, legal[-1], version, "from-b")
        assert refused.value.status == 409 and "refresh" in refused.value.message
        assert table_b.version == table_a.version
        assert table_b.snapshot(seat) == table_a.snapshot(seat)
        assert client.messages[-1]["version"] == table_a.version  # sent the current state

        # a resent play (its request id stored by another process) is not made twice
        seat = table_a.state.current_player()
        await table_a.play(seat, table_a.snapshot(seat)["legal"][0], table_a.version, "again")
        with pytest.raises(Refused, match="used already"):
            await table_b.play(seat, table_b.snapshot(seat)["legal"][0], table_b.version, "again")

        # a resignation stored by A ends the game for B too
        await table_a.resign(0)
        with pytest.raises(Refused, match="the game is over"):
            await table_b.resign(1)
        assert table_b.status == "over" and table_b.result == table_a.result
        for storage in (first, second):
            storage.close()

    asyncio.run(scenario())


def test_notices_and_locks(database_url: str, tmp_path: Path) -> None:
    origin = "me"
    assert read_notice(notice_payload("g", "other", 5), origin) == Notice("g", 5, origin="other")
    assert read_notice(notice_payload("g", "other", thinking=1), origin) \
        == Notice("g", None, 1, origin="other")
    assert read_notice(notice_payload("g", "other", spectators=3), origin) \
        == Notice("g", origin="other", spectators=3)
    line = ChatLine(1, "hi", "2026-01-01T00:00:00+00:00")
    assert read_notice(notice_payload("g", "other", chat=line.to_json()), origin) \
        == Notice("g", origin="other", chat=line)
    assert read_notice(notice_payload("g", "other", muted=[0, True]), origin) \
        == Notice("g", origin="other", muted=(0, True))
    assert read_notice(notice_payload("g", origin, 5), origin) is None  # our own
    for bad in ("", "[]", "{}", '{"game": 1}', '{"game": "g", "version": "x"}',
                '{"game": "g", "chat": {"seat": "x"}}', '{"game": "g", "muted": [0]}'):
        assert read_notice(bad, origin) is None
    assert lock_key("abc") == lock_key("abc") != lock_key("abd")
    assert -2**63 <= lock_key("abc") < 2**63
    assert type(peers_for(Storage(f"sqlite:///{tmp_path / 'x.db'}"))) is Peers
    storage = Storage(database_url)

    async def scenario() -> None:
        # one claim per game across processes, given back when released
        first, second = PostgresPeers(storage), PostgresPeers(storage)
        for peers in (first, second):
            await peers.start(lambda notice: None, lambda: None)
        try:
            assert await first.claim_ai("game1")
            assert not await second.claim_ai("game1")
            assert not await first.claim_ai("game1")  # nor twice in one process
            assert await second.claim_ai("game2")
            await first.release_ai("game1")
            assert await second.claim_ai("game1")
        finally:
            await first.close()
        await second.close()

    asyncio.run(scenario())
    storage.close()


def test_a_dead_claim_holder_lets_another_take_the_turn(database_url: str) -> None:
    storage = Storage(database_url)

    async def scenario() -> None:
        first, second = PostgresPeers(storage), PostgresPeers(storage)
        for peers in (first, second):
            await peers.start(lambda notice: None, lambda: None)
        assert await first.claim_ai("game")
        await first.close()  # its connections end, as with a process killed mid-thought
        assert await second.claim_ai("game")
        await second.close()

    asyncio.run(scenario())
    storage.close()


def test_notices_reach_a_listening_process(database_url: str) -> None:
    storage = Storage(database_url)
    heard: list[Any] = []

    async def scenario() -> None:
        peers = PostgresPeers(Storage(database_url))  # another process's Storage: new origin
        await peers.start(heard.append, lambda: None)
        try:
            tables = Tables(storage, AIRunner(0))
            created = await tables.create(CreateGame(mode="hotseat"))
            table = await tables.get(created.id)
            seat = table.state.current_player()
            await table.play(seat, table.snapshot(seat)["legal"][0], table.version, "x")
            deadline = time.monotonic() + TIMEOUT
            while not heard:
                assert time.monotonic() < deadline, "no notification came"
                await asyncio.sleep(0.02)
            assert heard[0].game == created.id and heard[0].version == table.version
        finally:
            await peers.close()

    asyncio.run(scenario())
    storage.close()


def test_processes_starting_together_create_the_tables_once() -> None:
    admin = admin_connection()
    name = create_database(admin)
    try:
        with ThreadPoolExecutor(4) as pool:
            storages = list(pool.map(lambda _: Storage(URL.format(name=name)), range(4)))
        for storage in storages:
            storage.close()
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


# ----------------------------------------------------------------------------- ratings

def sign_up(server: Server, name: str) -> dict[str, Any]:
    answer = httpx.post(f"{server.base}/api/players", json={"name": name}, timeout=TIMEOUT)
    assert answer.status_code == 201, answer.text
    return answer.json()


def resign_together(players: list[Player]) -> list[dict[str, Any]]:
    """Each client resigns at once; the finished game as each was sent it. A state sent
    before the end (the other seat's arrival, relayed between the processes) is passed over,
    and so is the refusal of the resignation that came second."""
    for player in players:
        player.next_state()
    for player in players:
        player.send(type="resign")
    answers = []
    for player in players:
        while (message := player.receive())["type"] != "state" or message["status"] != "over":
            assert message["type"] in ("state", "error", "spectators"), message
        answers.append(message)
    return answers


def rating(server: Server, player: dict[str, Any], game: str) -> dict[str, Any]:
    answer = httpx.get(f"{server.base}/api/players/{player['id']}", timeout=TIMEOUT)
    return answer.json()["ratings"][game]


def test_a_rated_game_ended_on_two_processes_at_once_rates_once(
        servers: tuple[Server, Server]) -> None:
    """Both seats resign at the same moment, one on each process: one resignation ends the
    game, and each player's rating changes once, in the transaction that stored the end."""
    a, b = servers
    north, south = sign_up(a, "Cluster_North"), sign_up(b, "Cluster_South")
    created = httpx.post(f"{a.base}/api/games", json={"game": "hill218", "mode": "friend",
                                                      "rated": True},
                         headers={"Authorization": f"Bearer {north['key']}"},
                         timeout=TIMEOUT).json()
    taken = httpx.get(f"{b.base}/api/games/{created['id']}",
                      params={"token": token_of(created["invite"])},
                      headers={"Authorization": f"Bearer {south['key']}"}, timeout=TIMEOUT)
    assert taken.status_code == 200, taken.text
    clients = [Player(a.ws(created["id"], created["token"]), 1),
               Player(b.ws(created["id"], taken.json()["seat_token"]), 2)]
    answers = resign_together(clients)
    for client in clients:
        client.close()
    assert all(m["result"] == answers[0]["result"] for m in answers), answers
    loser = answers[0]["result"]["by"]
    after = [rating(a, p, "hill218") for p in (north, south)]
    assert [r["games"] for r in after] == [1, 1]
    assert after[1 - loser]["rating"] > 1500 > after[loser]["rating"]
    quiet(a, b)


def test_one_players_two_rated_games_ending_at_once_both_count(
        servers: tuple[Server, Server]) -> None:
    """Two rated games of one player against the computer, resigned at once through the two
    processes: the rating row is locked by each end in turn, so neither update is lost."""
    a, b = servers
    solo = sign_up(a, "Cluster_Solo")
    games = [httpx.post(f"{server.base}/api/games",
                        json={"game": "ogre218", "mode": "ai", "ai_level": "easy",
                              "rated": True, "options": {"quick_start": True}},
                        headers={"Authorization": f"Bearer {solo['key']}"},
                        timeout=TIMEOUT).json() for server in servers]
    clients = [Player(server.ws(game["id"], game["token"]), 3)
               for server, game in zip(servers, games, strict=True)]
    for client in clients:  # the computer moves first in neither: seat 0 is the player's
        client.next_turn()
    for client in clients:
        client.send(type="resign")
    for client in clients:
        next_state_where(client, lambda st: st["status"] == "over")
        client.close()
    lost = ratings.Rating()
    for _ in games:
        lost = ratings.updated(lost, ratings.level_rating("easy"), 0.0)
    assert rating(b, solo, "ogre218") == {"rating": round(lost.rating, 1),
                                          "deviation": round(lost.deviation, 1), "games": 2}
    quiet(a, b)


# ----------------------------------------------------------------------------- the lobby

def lobby_of(server: Server) -> dict[str, Any]:
    answer = httpx.get(f"{server.base}/api/lobby", timeout=TIMEOUT)
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_an_open_game_across_two_processes(servers: tuple[Server, Server]) -> None:
    """Posted on A, listed on B, taken exactly once by two players racing on A and B, then
    watched on B with the count shown on A, and the players' chat goes across."""
    a, b = servers
    poster, first, second = (sign_up(a, f"Lobby_{n}") for n in ("Poster", "First", "Second"))
    posted = httpx.post(f"{a.base}/api/games", json={"mode": "open", "game": "hill218"},
                        headers={"Authorization": f"Bearer {poster['key']}"},
                        timeout=TIMEOUT).json()
    until(lambda: [g["id"] for g in lobby_of(b)["open"]] == [posted["id"]])
    assert lobby_of(b)["open"][0]["poster"] == "Lobby_Poster"

    def take(server: Server, player: dict[str, Any]) -> httpx.Response:
        return httpx.post(f"{server.base}/api/games/{posted['id']}/take",
                          headers={"Authorization": f"Bearer {player['key']}"},
                          timeout=TIMEOUT)

    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(take, (a, b), (first, second)))
    assert sorted(r.status_code for r in answers) == [201, 409], [r.text for r in answers]
    taken = next(r.json() for r in answers if r.status_code == 201)
    until(lambda: [g["id"] for g in lobby_of(a)["live"]] == [posted["id"]]
          and lobby_of(a)["open"] == [])

    seat_a = Player(a.ws(posted["id"], posted["token"]), 1)
    seat_b = Player(b.ws(posted["id"], taken["token"]), 2)
    assert seat_a.next_state()["status"] == seat_b.next_state()["status"] == "playing"
    spectator = Player(b.ws(posted["id"]), 3)
    spectator.next_state()
    assert next_of(seat_a, "spectators") == {"type": "spectators", "count": 1}
    until(lambda: lobby_of(a)["live"][0]["spectators"] == 1)

    seat_a.send(type="chat", text="good luck")
    for seat in (seat_a, seat_b):
        assert next_of(seat, "chat")["lines"][0]["text"] == "good luck"
    # B's seat mutes A's on B; its second connection, on A, learns it by a notice
    seat_b.send(type="mute", muted=True)
    assert next_of(seat_b, "chat") == {"type": "chat", "lines": [], "muted": True,
                                       "replace": True}
    seat_b_on_a = Player(a.ws(posted["id"], taken["token"]), 4)
    seat_b_on_a.next_state()
    while not next_of(seat_b_on_a, "chat")["muted"]:
        pass
    seat_a.send(type="chat", text="not heard")
    assert next_of(seat_a, "chat")["lines"][0]["text"] == "not heard"
    seat_b.send(type="chat", text="still here")  # the next line B's seat reads on A
    assert [line["text"] for line in next_of(seat_b_on_a, "chat")["lines"]] == ["still here"]
    assert next_of(seat_a, "chat")["lines"][0]["text"] == "still here"
    spectator.close()
    assert next_of(seat_a, "spectators") == {"type": "spectators", "count": 0}
    for player in (seat_a, seat_b, seat_b_on_a):
        player.close()
    assert all(m["type"] != "chat" for m in spectator.messages)
