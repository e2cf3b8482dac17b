"""Shared test settings: Hypothesis profiles (CI runs more examples) and the suite's layers.

The markers (registered in pyproject.toml) let the suite run in pieces; README.md, "Running the
tests in pieces", says how:

* ``browser``: Chromium through Playwright against a real server;
* ``postgres``: needs a PostgreSQL server;
* ``ray``: needs the ``ray`` extra and starts a Ray cluster;
* ``docker``: builds and runs the container image (needs a Docker daemon that can pull);
* ``slow``: everything above, and the tests that take seconds each: real server processes over
  sockets, load runs, the research adapters' external test suites, long property runs,
  training, AI strength checks.

``pytest -m "not slow"`` runs the rest in under a minute. The markers are given here, by file
name: whole modules in ``MODULE_MARKERS``, single tests (by function name, every parameter) in
``TEST_MARKERS``; tests/test_suite_layers.py checks that every name here still exists. Time a
run with ``pytest --durations=40`` to see what belongs where.

Shared fixtures: ``database_url``, a fresh database for each test in SQLite and in PostgreSQL;
for the browser tests ``server``, ``browser`` and ``shots``, one of each per module.
No test writes to the user data folder, where warboard keeps its database when given none:
``XDG_DATA_HOME`` points into a folder of the run's own (for the server processes too).
"""

import os
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("dev", max_examples=25, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")

POSTGRES = "postgresql+psycopg://root@127.0.0.1:5432/test"
DATA_HOME = tempfile.mkdtemp(prefix="warboard-test-data-")
os.environ["XDG_DATA_HOME"] = DATA_HOME  # platformdirs' user data folder, on Linux


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(DATA_HOME, ignore_errors=True)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A new SQLite file, or a new schema of PostgreSQL's database ``test`` (dropped
    afterwards; skipped, saying why, without psycopg or the server)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'games.db'}"
        return
    try:
        import psycopg
    except ImportError:
        pytest.skip("PostgreSQL variant: psycopg is not installed "
                    "(pip install -e '.[postgres]')")
    try:
        admin = psycopg.connect("host=127.0.0.1 port=5432 user=root dbname=test",
                                connect_timeout=3, autocommit=True)
    except psycopg.OperationalError as exc:
        pytest.skip(f"PostgreSQL variant: no server at 127.0.0.1:5432 ({exc})".strip())
    schema = f"warboard_test_{uuid.uuid4().hex[:12]}"
    admin.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{POSTGRES}?options=-csearch_path%3D{schema}"
    finally:
        admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
        admin.close()


# every test of these modules carries these markers
MODULE_MARKERS: dict[str, tuple[str, ...]] = {
    "test_web_e2e.py": ("browser",),
    "test_web_htl_e2e.py": ("browser",),
    "test_web_follow_e2e.py": ("browser",),
    "test_web_players_e2e.py": ("browser",),
    "test_web_analysis_e2e.py": ("browser",),
    "test_server_cluster.py": ("postgres",),  # several server processes on one database
    "test_server_abuse.py": ("slow",),  # attacks on real server processes
    "test_loadtest.py": ("slow",),  # load runs against real server processes
    "test_adapters_openspiel.py": ("slow",),  # OpenSpiel's own test suites and bots
    "test_adapters_holdtheline.py": ("slow",),
    "test_properties.py": ("slow",),  # long property runs over random card games
    "test_example_train_policy.py": ("slow",),  # trains a network
    "test_example_train_maskable_ppo.py": ("slow",),  # trains a network with MaskablePPO
    "test_typing.py": ("slow",),  # mypy over the package: half a minute without its cache
}

# single tests: a real warboard process (the server, or the command line end to end), whole
# games through the terminal, strength checks, tens of thousands of lines, Ray
TEST_MARKERS: dict[str, dict[str, tuple[str, ...]]] = {
    "test_ai.py": {
        "test_ray_backend_runs_the_same_tournament": ("ray",),
        "test_search_beats_random_play": ("slow",),
    },
    "test_htl_ai.py": {"test_search_beats_random_play": ("slow",)},
    "test_training.py": {  # self-play generations with the learner
        "test_training_resumed_after_an_interruption_ends_where_an_uninterrupted_run_does":
            ("slow",),
        "test_the_train_command_reports_each_generation_and_refuses_a_changed_resume":
            ("slow",),
        "test_training_on_ray_is_the_same_run": ("ray",),
    },
    "test_adapters_gym.py": {  # a warboard process; training
        "test_gymnasium_make_imports_the_module_itself": ("slow",),
        "test_maskable_ppo_learns_a_little": ("slow",),
    },
    "test_server.py": {"test_server_killed_with_sigkill_goes_on_where_it_was": ("slow",)},
    "test_server_quotas.py": {"test_serve_with_a_bad_setting_says_which_and_stops": ("slow",)},
    "test_server_ops.py": {
        "test_json_logs_name_the_game_and_never_a_token": ("slow",),
        "test_not_ready_while_the_database_cannot_be_reached": ("postgres",),
    },
    "test_server_settings.py": dict.fromkeys((
        "test_serve_shows_its_settings_masked_even_when_it_cannot_start",
        "test_serve_with_bad_settings_exits_2_with_one_line",
        "test_uvicorn_runs_the_app_factory_with_settings_from_the_environment",
        "test_the_app_factory_with_a_bad_setting_stops_with_status_2",
    ), ("slow",)),
    "test_server_htl.py": {"test_replay_of_a_hold_the_line_game": ("slow",)},
    "test_server_campaigns.py": {  # server processes, restarted; whole battles over sockets
        "test_a_campaign_against_the_computer_goes_on_across_a_restart": ("slow",),
        "test_a_battle_played_to_its_end_starts_the_next_with_the_same_tokens": ("slow",),
    },
    "test_data_commands.py": {
        "test_serve_without_a_database_url_stores_in_the_user_data_folder": ("slow",),
        "test_a_backup_taken_while_a_server_writes_restores_and_plays_on": ("slow",),
        "test_the_pg_dump_and_pg_restore_commands_copy_the_games": ("postgres",),
    },
    "test_interchange.py": {
        "test_s7_one_process_answers_tens_of_thousands_of_lines": ("slow",),
    },
    "test_cli.py": {  # each starts `warboard` processes
        "test_every_command_has_help": ("slow",),
        "test_a_runtime_error_is_one_line_and_exit_status_1": ("slow",),
        "test_a_closed_pipe_is_quiet": ("slow",),
    },
    "test_records.py": {"test_export_command_writes_a_seat_record": ("slow",)},
    "test_deploy.py": {  # the deployment files' commands run as real processes
        "test_the_image_builds_runs_and_becomes_healthy": ("docker",),
        "test_the_images_entry_command_serves_as_its_env_configures_it": ("slow",),
        "test_nginx_in_front_of_two_servers_as_in_compose": ("postgres",),
        "test_the_systemd_units_command_line_serves": ("slow",),
    },
    "test_htl_scenarios.py": {
        "test_warboard_scenarios_lists_every_scenario": ("slow",),
        "test_warboard_scenarios_name_shows_details_and_history": ("slow",),
    },
    "test_htl_scenario_input.py": {
        "test_scenarios_check_refuses_what_is_not_a_small_regular_file": ("slow",),
        "test_play_and_balance_take_a_scenario_file": ("slow",),
        "test_the_server_answers_422_to_a_scenario_that_is_not_a_name": ("slow",),
    },
    "test_htl_campaigns.py": {  # two battles through the terminal, replayed
        "test_a_campaign_in_the_terminal_saved_resumed_and_replayed": ("slow",),
    },
    "test_htl_terminal.py": {
        "test_a_whole_game_against_random_is_saved_and_replays": ("slow",),
    },
    "test_terminal.py": dict.fromkeys((
        "test_game_against_random_ends_with_a_result_and_a_record_that_replays",
        "test_an_illegal_or_unreadable_play_is_explained_and_the_game_goes_on",
        "test_hot_seat_shows_each_player_only_its_own_cards",
        "test_hot_seat_hand_over_clears_the_scrollback_and_shows_the_seed_again",
        "test_play_subprocess_with_piped_input_exits_cleanly_at_end_of_input",
        "test_replay_all_prints_every_step_with_the_result",
        "test_replay_for_one_seat_hides_the_other_seats_cards",
        "test_replay_steps_interactively_with_enter_back_jump_and_quit",
        "test_play_against_an_ai_level_to_the_end",
    ), ("slow",)),
}

# markers that make a test slow as well
SLOW_LAYERS = ("browser", "postgres", "ray", "docker")


def markers_for(item: pytest.Item) -> tuple[str, ...]:
    """The layer markers this file's table gives ``item``."""
    name = item.path.name
    function = getattr(item, "originalname", item.name)
    found = MODULE_MARKERS.get(name, ()) + TEST_MARKERS.get(name, {}).get(function, ())
    callspec = getattr(item, "callspec", None)
    if callspec is not None and callspec.params.get("database_url") == "postgresql":
        found += ("postgres",)  # the PostgreSQL variant of the storage tests
    return found


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        for name in markers_for(item):
            item.add_marker(name)
        if any(item.get_closest_marker(name) for name in SLOW_LAYERS):
            item.add_marker("slow")


# ---------------------------------------------------------------- the browser tests' fixtures
# Each browser test module (tests/test_web_*_e2e.py; they skip themselves without Playwright
# or Chromium) gets one server process, one headless Chromium and one screenshot folder of its
# own, named after the module. A module that needs another server defines its own ``server``.


def _web_module_name(request: pytest.FixtureRequest) -> str:
    """"test_web_htl_e2e" -> "htl" ("web" for test_web_e2e)."""
    name = request.module.__name__.rpartition(".")[2]
    return name.removeprefix("test_web_").removesuffix("_e2e").removesuffix("test_web") or "web"


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The address of a ``warboard serve`` process of the module's own."""
    from web_helpers import running_server

    with running_server(tmp_path_factory.mktemp(f"{_web_module_name(request)}-server")) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless, through Playwright."""
    from playwright import sync_api

    from web_helpers import chromium

    with chromium(sync_api) as b:
        yield b


@pytest.fixture(scope="module")
def shots(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of the module's screenshots (``$WARBOARD_E2E_SHOTS`` when set)."""
    from web_helpers import screenshots_dir

    return screenshots_dir(tmp_path_factory, f"{_web_module_name(request)}-screenshots")
