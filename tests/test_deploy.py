"""The deployment files stay true (docs/deploy.md): the Dockerfile, deploy/compose.yaml,
deploy/nginx.conf and the systemd unit of docs/deploy.md.

These machines cannot pull container images, so what a container would run is also run here as
a real local process: the image's entry command with the Dockerfile's ENV (port and data folder
replaced by the test's own), its HEALTHCHECK command against it; the systemd unit's ExecStart=
with its Environment=; and, where nginx is installed, deploy/nginx.conf in front of two real
server processes on one PostgreSQL database with Redis, as in the compose file. The image itself
is built and run only where a Docker daemon answers and the base image can be had; otherwise that
test skips saying why.
"""

from __future__ import annotations

import json
import os
import random
import re
import shlex
import shutil
import signal
import sqlite3
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml
from websockets.sync.client import connect

from deploy_files import (
    COMPOSE,
    DEPLOY_DOC,
    DOCKERFILE,
    NGINX_CONF,
    ROOT,
    TIMEOUT,
    Process,
    clean_environment,
    exec_form,
    local_command,
    poll,
    read_dockerfile,
    read_unit,
    unit_environment,
    unit_text,
    unknown_settings,
)
from server_helpers import free_port
from warboard.server.settings import ServerSettings

NEW_GAME = {"game": "hill218", "mode": "ai", "ai_level": "easy"}


def create_game(base: str, **kwargs: Any) -> dict[str, Any]:
    answer = httpx.post(f"{base}/api/games", json=NEW_GAME, timeout=TIMEOUT, **kwargs)
    assert answer.status_code == 201, answer.text
    return answer.json()


def stored_game_ids(database: Path) -> set[str]:
    with sqlite3.connect(database) as db:
        return {row[0] for row in db.execute("SELECT id FROM games")}


# ----------------------------------------------------------------------------- the Dockerfile

def test_the_dockerfile_builds_a_small_non_root_image_with_a_health_check():
    docker = read_dockerfile()
    assert len(docker.stages) == 2, "a builder stage and a runtime stage"
    builder, runtime = docker.stages
    assert builder.name == "builder"
    assert builder.base == runtime.base and "slim" in runtime.base, "one slim base image"
    assert any("gcc" in run for run in builder.all("RUN")), "the builder compiles the C extension"
    assert not any("gcc" in run for run in runtime.all("RUN")), "no compiler in the runtime"
    assert any('"warboard[postgres,redis]"' in run for run in runtime.all("RUN"))
    assert any("fast.available()" in run for run in runtime.all("RUN")), (
        "the build fails when the C fast path is missing")
    user = runtime.one("USER").split(":")[0]
    assert user not in ("root", "0"), "the server must not run as root"
    env = docker.env()
    assert env["WARBOARD_HOST"] == "0.0.0.0"
    assert runtime.one("EXPOSE") == env["WARBOARD_PORT"]
    volume = runtime.one("VOLUME")
    folders = exec_form(volume) if volume.startswith("[") else volume.split()
    database = env["WARBOARD_DATABASE_URL"].removeprefix("sqlite:///")
    assert any(Path(database).is_relative_to(f) for f in folders), "the games live in the volume"
    assert docker.entry_command()[:2] == ["warboard", "serve"]
    assert len(docker.entry_command()) == 2, "configured by the environment alone"
    options, command = docker.healthcheck()
    assert {"interval", "timeout", "retries"} <= set(options)
    assert command[:2] == ["python", "-c"] and "/api/health" in command[2]
    assert unknown_settings(DOCKERFILE.read_text(encoding="utf-8")) == set()


def test_a_misspelt_setting_name_is_found():
    assert unknown_settings("ENV WARBOARD_PORT=1 WARBOARD_DATABSE_URL=x") == {
        "WARBOARD_DATABSE_URL"}
    assert unknown_settings("WARBOARD_* variables, WARBOARD_FORWARDED_ALLOW_IPS") == set()


def test_the_images_entry_command_serves_as_its_env_configures_it(tmp_path: Path):
    """The Dockerfile's ENTRYPOINT + CMD with its ENV, the data folder and port the test's own:
    it listens on every address (WARBOARD_HOST), on WARBOARD_PORT, stores games in
    WARBOARD_DATABASE_URL, logs JSON lines (WARBOARD_LOG_FORMAT); the HEALTHCHECK passes while it
    serves and fails once it is gone."""
    docker = read_dockerfile()
    image_env = docker.env()
    port = free_port()
    data = tmp_path / "data"
    data.mkdir()
    env = {name: value.replace("/data", str(data)) for name, value in image_env.items()}
    env["WARBOARD_PORT"] = str(port)
    assert env["WARBOARD_DATABASE_URL"] != image_env["WARBOARD_DATABASE_URL"]
    server = Process(local_command(docker.entry_command()), clean_environment(env), tmp_path,
                     "serve")
    try:
        server.wait_until_serving(f"http://127.0.0.1:{port}")
        # 0.0.0.0: another loopback address answers too (the default, 127.0.0.1, would not)
        assert httpx.get(f"http://127.0.0.2:{port}/api/health").json() == {"ok": True}
        created = create_game(f"http://127.0.0.1:{port}")
        assert created["id"] in stored_game_ids(data / "warboard.db")
        assert not (tmp_path / "warboard.db").exists()  # not the default database
        ready = httpx.get(f"http://127.0.0.1:{port}/api/ready")
        if ready.status_code != 404:  # where the server has a readiness check
            assert ready.status_code == 200, ready.text
        health = healthcheck(docker, port)
        assert health.returncode == 0, health.stderr
    finally:
        server.stop()
    assert stopped_cleanly(server), server.output()
    # WARBOARD_LOG_FORMAT=json: the log is JSON lines
    logged = [json.loads(ln) for ln in server.output().splitlines() if ln.startswith("{")]
    assert any(e["message"].startswith("Uvicorn running on") for e in logged), server.output()
    health = healthcheck(docker, port)
    assert health.returncode == 1, "unhealthy when nothing answers (docker: exit 1)"


def stopped_cleanly(server: Process) -> bool:
    """Uvicorn stops gracefully on SIGTERM, then dies of it (systemd and docker count that as
    a clean stop)."""
    return server.popen.returncode in (0, -signal.SIGTERM)


def healthcheck(docker: Any, port: int) -> subprocess.CompletedProcess[str]:
    """The HEALTHCHECK's command, its ``python`` this one, with the server's port."""
    _, command = docker.healthcheck()
    assert command[0] == "python"
    return subprocess.run([sys.executable, *command[1:]], capture_output=True, text=True,
                          env=clean_environment({"WARBOARD_PORT": str(port)}), timeout=TIMEOUT)


def docker_or_skip() -> str:
    docker = shutil.which("docker")
    if docker is None:
        pytest.skip("no docker command: the image is not built here (the entry command and "
                    "health check are run as a local process by the tests above)")
    info = subprocess.run([docker, "info"], capture_output=True, text=True, timeout=30)
    if info.returncode != 0:
        reason = (info.stderr.strip().splitlines() or ["no reason given"])[-1]
        pytest.skip(f"the Docker daemon does not answer, so the image is not built here (the "
                    f"entry command and health check run as local processes instead): {reason}")
    base = read_dockerfile().stages[0].base
    if subprocess.run([docker, "image", "inspect", base], capture_output=True).returncode != 0:
        try:
            pulled = subprocess.run([docker, "pull", base], capture_output=True, text=True,
                                    timeout=180)
        except subprocess.TimeoutExpired:
            pytest.skip(f"docker pull {base} took over 180 s: this machine cannot pull images")
        if pulled.returncode != 0:
            pytest.skip(f"docker cannot pull {base} (this machine cannot pull images): "
                        f"{pulled.stderr.strip()}")
    return docker


def test_the_image_builds_runs_and_becomes_healthy():
    docker = docker_or_skip()
    tag = f"warboard-test:{uuid.uuid4().hex[:8]}"
    built = subprocess.run([docker, "build", "-t", tag, str(ROOT)], capture_output=True,
                           text=True, timeout=1800)
    assert built.returncode == 0, built.stderr[-4000:]
    name = f"warboard-test-{uuid.uuid4().hex[:8]}"
    try:
        subprocess.run([docker, "run", "-d", "--name", name, "-p", "127.0.0.1::8218",
                        "--health-interval=1s", tag], check=True, capture_output=True)

        def status() -> str:
            return subprocess.run([docker, "inspect", "--format", "{{.State.Health.Status}}",
                                   name], capture_output=True, text=True).stdout.strip()

        poll(lambda: status() == "healthy", "the container's health check", timeout=120)
        mapped = subprocess.run([docker, "port", name, "8218"], capture_output=True,
                                text=True, check=True).stdout.split()[0]
        assert httpx.get(f"http://{mapped}/api/health").json() == {"ok": True}
        created = create_game(f"http://{mapped}")
        assert created["id"]

        def inside(*argv: str) -> str:
            return subprocess.run([docker, "exec", name, *argv], capture_output=True,
                                  text=True, check=True).stdout.strip()

        assert inside("id", "-u") != "0"
        assert inside("python", "-c", "from warboard.hill218 import fast; "
                      "print(fast.available())") == "True"
        assert inside("python", "-c", "import psycopg, redis; print('ok')") == "ok"
    finally:
        subprocess.run([docker, "rm", "-f", name], capture_output=True)
        subprocess.run([docker, "rmi", "-f", tag], capture_output=True)


# ----------------------------------------------------------------------------- compose + nginx

def compose() -> dict[str, Any]:
    return yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))


def table_services(services: dict[str, Any]) -> dict[str, Any]:
    """The services built from the repository's Dockerfile."""
    return {name: s for name, s in services.items() if "build" in s
            and (COMPOSE.parent / s["build"]["context"] / s["build"].get(
                "dockerfile", "Dockerfile")).resolve() == DOCKERFILE}


def interpolated(value: str) -> str:
    """A compose value with its ``${NAME...}`` variables given a value."""
    return re.sub(r"\$\{[^}]*\}", "secret", value)


def test_compose_runs_two_servers_on_postgres_and_redis_behind_nginx(
        monkeypatch: pytest.MonkeyPatch):
    services = compose()["services"]
    tables = table_services(services)
    assert len(tables) == 2, f"two server processes: {sorted(tables)}"
    by_image = {name: s.get("image", "") for name, s in services.items()}
    db = next(n for n, image in by_image.items() if image.startswith("postgres"))
    redis = next(n for n, image in by_image.items() if image.startswith("redis"))
    proxy = next(n for n, image in by_image.items() if image.startswith("nginx"))
    assert "healthcheck" in services[db] and "healthcheck" in services[redis]
    proxy_address = services[proxy]["networks"]["tables"]["ipv4_address"]
    assert services[proxy]["ports"] == ["8218:80"]
    assert set(services[proxy]["depends_on"]) == set(tables)
    assert all(s["depends_on"][n]["condition"] == "service_healthy"
               for s in services.values() for n in s.get("depends_on", {}))
    mounted = [v.split(":") for v in services[proxy]["volumes"]]
    assert [(COMPOSE.parent / src).resolve() for src, *_ in mounted] == [NGINX_CONF]
    for name, table in tables.items():
        env = table["environment"]
        assert "ports" not in table, f"{name}: only the proxy is published"
        assert re.fullmatch(rf"postgresql\+psycopg://\w+:\$\{{[^}}]+\}}@{db}:5432/\w+",
                            env["WARBOARD_DATABASE_URL"])
        assert env["WARBOARD_RATE_LIMIT_STORAGE"].startswith(f"redis://{redis}:")
        assert env["WARBOARD_FORWARDED_ALLOW_IPS"] == proxy_address
        # every value is one the server accepts
        for variable in [v for v in os.environ if v.startswith("WARBOARD_")]:
            monkeypatch.delenv(variable)
        for variable, value in env.items():
            monkeypatch.setenv(variable, interpolated(str(value)))
        ServerSettings()
    assert unknown_settings(COMPOSE.read_text(encoding="utf-8")) == set()
    assert unknown_settings(DEPLOY_DOC.read_text(encoding="utf-8")) == set()


def test_docker_compose_accepts_the_compose_file():
    docker = shutil.which("docker")
    if docker is None or subprocess.run([docker, "compose", "version"],
                                        capture_output=True).returncode != 0:
        pytest.skip("no docker compose plugin here: the compose file is only read as YAML")
    checked = subprocess.run([docker, "compose", "-f", str(COMPOSE), "config", "--quiet"],
                             capture_output=True, text=True, timeout=TIMEOUT,
                             env={**os.environ, "POSTGRES_PASSWORD": "secret"})
    assert checked.returncode == 0, checked.stderr


def test_nginx_conf_passes_websockets_and_names_the_client():
    conf = NGINX_CONF.read_text(encoding="utf-8")
    directives = {" ".join(line.split()).rstrip(";") for line in
                  (ln.split("#")[0] for ln in conf.splitlines()) if line.strip()}
    assert {"proxy_http_version 1.1", "proxy_set_header Upgrade $http_upgrade",
            "proxy_set_header Connection $connection_upgrade",
            "proxy_set_header X-Forwarded-For $remote_addr",
            "proxy_read_timeout 1h"} <= directives
    assert re.search(r"map \$http_upgrade \$connection_upgrade \{\s*default upgrade;", conf)
    upstream = re.findall(r"^\s*server (\S+):(\d+);", conf, re.M)
    port = read_dockerfile().env()["WARBOARD_PORT"]
    assert sorted(upstream) == sorted((n, port) for n in table_services(compose()["services"]))
    assert "$request_uri" not in conf and "$args" not in conf, "tokens stay out of the log"


@pytest.fixture
def shared_database() -> Iterator[str]:
    """A throwaway PostgreSQL database's URL (skips, saying why, without PostgreSQL)."""
    from test_server_cluster import URL, admin_connection, create_database

    admin = admin_connection()
    name = create_database(admin)
    try:
        yield URL.format(name=name)
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


def redis_or_skip() -> str:
    url = "redis://127.0.0.1:6379/0"
    try:
        import redis
    except ImportError:
        pytest.skip("the proxy test shares rate limits through Redis: pip install -e "
                    "'.[redis]' (.ci/run does)")
    try:
        redis.Redis.from_url(url, socket_timeout=2).ping()
    except redis.RedisError as exc:
        pytest.skip(f"the proxy test needs Redis at 127.0.0.1:6379 (.ci/run starts it): {exc}")
    return url


def test_nginx_in_front_of_two_servers_as_in_compose(tmp_path: Path, shared_database: str):
    """deploy/nginx.conf (addresses made local) in front of two image entry commands with the
    compose file's environment: both get requests, WebSockets pass, the servers see the client's
    address (not the proxy's, not one the client made up), the per-client game limit is counted
    over both through Redis, and no token reaches nginx's log."""
    nginx = shutil.which("nginx")
    if nginx is None:
        pytest.skip("nginx is not installed (Debian: apt-get install nginx-light): the proxy "
                    "config is only read, not run")
    redis_url = redis_or_skip()
    docker = read_dockerfile()
    ports = [free_port(), free_port()]
    proxy_port = free_port()
    servers = []
    try:
        for port, (name, table) in zip(ports, table_services(compose()["services"]).items(),
                                       strict=True):
            env = {**docker.env(), **table["environment"],
                   "WARBOARD_HOST": "127.0.0.1", "WARBOARD_PORT": str(port),
                   "WARBOARD_DATABASE_URL": shared_database,
                   "WARBOARD_RATE_LIMIT_STORAGE": redis_url,
                   "WARBOARD_FORWARDED_ALLOW_IPS": "127.0.0.1",  # where nginx comes from
                   "WARBOARD_AI_WORKERS": "1", "WARBOARD_GAMES_PER_MINUTE": "1"}
            servers.append(Process(local_command(docker.entry_command()),
                                   clean_environment(env), tmp_path, name))
        for port, server in zip(ports, servers, strict=True):
            server.wait_until_serving(f"http://127.0.0.1:{port}")
        proxy = start_nginx(nginx, tmp_path, ports, proxy_port)
        try:
            check_through_proxy(f"127.0.0.1:{proxy_port}", servers, tmp_path)
        finally:
            proxy.stop()
    finally:
        for server in servers:
            server.stop()


def start_nginx(nginx: str, folder: Path, ports: list[int], proxy_port: int) -> Process:
    conf = NGINX_CONF.read_text(encoding="utf-8")
    upstreams = iter(ports)
    conf = re.sub(r"^(\s*server )\S+;", lambda m: f"{m[1]}127.0.0.1:{next(upstreams)};", conf,
                  flags=re.M)
    conf = conf.replace("listen 80;", f"listen 127.0.0.1:{proxy_port};")
    conf = conf.replace("/var/log/nginx/access.log", str(folder / "access.log"))
    (folder / "warboard.conf").write_text(conf, encoding="utf-8")
    (folder / "nginx.conf").write_text(
        f"daemon off;\nworker_processes 1;\npid {folder / 'nginx.pid'};\n"
        f"error_log {folder / 'error.log'};\nevents {{}}\n"
        f"http {{\n    client_body_temp_path {folder / 'body'};\n"
        f"    proxy_temp_path {folder / 'proxy'};\n    include {folder / 'warboard.conf'};\n}}\n",
        encoding="utf-8")
    proxy = Process([nginx, "-p", str(folder), "-e", str(folder / "error.log"), "-c",
                     str(folder / "nginx.conf")], clean_environment({}), folder, "nginx")
    proxy.wait_until_serving(f"http://127.0.0.1:{proxy_port}")
    return proxy


def client_from(address: str) -> httpx.Client:
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=TIMEOUT)


def check_through_proxy(proxy: str, servers: list[Process], folder: Path) -> None:
    base = f"http://{proxy}"
    for _ in range(4):  # round robin: both servers answer
        assert httpx.get(f"{base}/api/health").status_code == 200
    poll(lambda: all("/api/health" in s.output() for s in servers), "both servers answered")
    # two clients, each its own address (random, so that runs sharing Redis do not meet)
    one, two = (f"127.{random.randrange(1, 255)}.{random.randrange(1, 255)}.{n}"
                for n in (1, 2))
    with client_from(one) as first, client_from(two) as second:
        # a made-up X-Forwarded-For is replaced by nginx: the server sees the real address
        answer = first.post(f"{base}/api/games", json=NEW_GAME,
                            headers={"X-Forwarded-For": "10.9.8.7"})
        assert answer.status_code == 201, answer.text
        created = answer.json()
        # one game a minute per client, counted over both servers (Redis)
        again = first.post(f"{base}/api/games", json=NEW_GAME)
        assert again.status_code == 429, again.text
        # another client is not limited, even naming the first one
        other = second.post(f"{base}/api/games", json=NEW_GAME,
                            headers={"X-Forwarded-For": one})
        assert other.status_code == 201, other.text
    logs = "".join(s.output() for s in servers)
    assert one in logs and two in logs and "10.9.8.7" not in logs, logs[-3000:]
    # the seat's WebSocket through the proxy: the game's state arrives
    url = f"ws://{proxy}/ws/games/{created['id']}?token={created['token']}"
    with connect(url, open_timeout=TIMEOUT) as ws:
        message = json.loads(ws.recv(timeout=TIMEOUT))
    assert message["type"] in ("state", "thinking"), message
    access = (folder / "access.log").read_text(encoding="utf-8")
    assert f"/ws/games/{created['id']}" in access
    assert created["token"] not in access, "nginx logged a seat's token"


# ----------------------------------------------------------------------------- systemd

def unit_service() -> dict[str, list[str]]:
    return read_unit(unit_text())["Service"]


def test_the_systemd_unit_runs_a_dedicated_user_in_a_hardened_sandbox():
    service = unit_service()
    assert service["User"][0] not in ("root", "0")
    for key, value in {"NoNewPrivileges": "yes", "ProtectSystem": "strict",
                       "ProtectHome": "yes", "PrivateTmp": "yes"}.items():
        assert service.get(key) == [value], key
    state = Path("/var/lib") / service["StateDirectory"][0]
    assert service["WorkingDirectory"] == [str(state)]
    # ProtectSystem=strict: the state directory is the only place it may write
    env = unit_environment(service)
    database = Path(env["WARBOARD_DATABASE_URL"].removeprefix("sqlite:///"))
    assert database.is_relative_to(state)
    assert all(f.startswith("-") for f in service["EnvironmentFile"]), (
        "an EnvironmentFile= the unit can start without")
    assert unknown_settings(unit_text()) == set()


def test_the_systemd_units_command_line_serves(tmp_path: Path):
    """ExecStart= run with the unit's Environment= (the state directory and port the test's
    own), in its WorkingDirectory=: it serves and stores games where the unit says."""
    service = unit_service()
    (command,) = service["ExecStart"]
    argv_unit = shlex.split(command)  # systemd's quoting is the shell's, without expansions
    assert Path(argv_unit[0]).is_absolute() and argv_unit[1] == "serve"
    state = f"/var/lib/{service['StateDirectory'][0]}"
    local_state = tmp_path / "state"
    local_state.mkdir()
    env = {n: v.replace(state, str(local_state)) for n, v in unit_environment(service).items()}
    port = free_port()
    env["WARBOARD_PORT"] = str(port)
    server = Process(local_command(argv_unit), clean_environment(env), local_state, "serve")
    try:
        server.wait_until_serving(f"http://{env['WARBOARD_HOST']}:{port}")
        created = create_game(f"http://{env['WARBOARD_HOST']}:{port}")
        assert created["id"] in stored_game_ids(local_state / "warboard.db")
    finally:
        server.stop()
    assert stopped_cleanly(server), server.output()


def test_systemd_analyze_verifies_the_unit(tmp_path: Path):
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("no systemd-analyze here: the unit is read by the tests above, not verified")
    service = unit_service()
    (command,) = service["ExecStart"]
    local = shutil.which("warboard", path=str(Path(sys.executable).parent)) or shutil.which(
        "warboard")
    if local is None:
        pytest.skip("no warboard script installed to stand in for ExecStart='s binary")
    text = unit_text().replace(command.split()[0], local)

    def complaints(text: str) -> list[str]:
        unit = tmp_path / "warboard.service"
        unit.write_text(text, encoding="utf-8")
        verified = subprocess.run([analyze, "verify", "--man=no", str(unit)],
                                  capture_output=True, text=True, timeout=TIMEOUT)
        # it exits 0 even for a key or value it ignores: every complaint names the file
        found = [line for line in (verified.stdout + verified.stderr).splitlines()
                 if str(unit) in line]
        return found if verified.returncode == 0 else [verified.stdout + verified.stderr]

    assert complaints(text) == []
    # the check can fail: a misspelt option is found
    assert complaints(text.replace("NoNewPrivileges=", "NoNewPrivilege=")) != []
