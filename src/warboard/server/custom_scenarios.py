"""Battles of the players' own design (docs/server-api.md, "Custom scenarios"): check one, store
one to share by link, read one back, and play one (``POST /api/games`` with ``custom_scenario``).

What a game accepts is its own (``GameInfo.custom_setups``, a ``CustomSetups``): the server only
carries the text — read from the request as data, never used as a path — and stores it once the
game has checked it. A game of a stored scenario takes the options the game derives from the
text, so it does not depend on the stored row afterwards.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from pydantic import BaseModel, ConfigDict, Field, model_validator

from warboard.core import registry
from warboard.core.i18n import msg
from warboard.core.protocol import CustomSetups, SetupCheck
from warboard.server import tokens
from warboard.server.messages import (
    CreateGame,
    Refused,
    TooMany,
    parse_body,
    read_body,
    unavailable,
)
from warboard.server.quotas import Quotas, client_of
from warboard.server.storage import Storage, StorageError
from warboard.server.tables import read_found

SCENARIO_ID = r"^[a-z0-9]{1,16}$"  # tokens.new_game_id's alphabet, checked before a lookup


class ScenarioBody(BaseModel):
    """``POST /api/scenarios`` and ``/api/scenarios/check``: the game and either the scenario's
    text (``toml``) or the editor's model of it (``model``)."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(default_factory=registry.default_game, max_length=40)
    toml: str | None = None
    model: dict[str, Any] | None = None

    @model_validator(mode="after")
    def one_of(self) -> ScenarioBody:
        if (self.toml is None) == (self.model is None):
            raise ValueError("give the scenario as toml (its text) or as model, one of them")
        return self


def setups_of(game: str) -> CustomSetups:
    """The game's custom setups; 404 when it has none, or is no game."""
    try:
        setups = registry.custom_setups_of(game)
    except ValueError as exc:
        raise Refused(msg("server.reason", reason=str(exc)), 404) from None
    if setups is None:
        raise Refused(msg("server.noCustomScenarios", game=repr(game)), 404)
    return setups


def check(body: ScenarioBody) -> SetupCheck:
    """The game's check of the body's text or model (the body is within 64 KiB already)."""
    setups = setups_of(body.game)
    if body.toml is not None:
        return setups.check_text(body.toml)
    assert body.model is not None
    return setups.check_model(body.model)


def answer(checked: SetupCheck) -> dict[str, Any]:
    """A check's answer: ``ok`` with the canonical text, the model and the summary, or the
    problems (each ``{"field", "problem", "at"}``)."""
    if not checked.ok:
        return {"ok": False, "errors": [p.to_json() for p in checked.problems]}
    return {"ok": True, "summary": checked.summary, "toml": checked.text, "model": checked.model}


async def stored(storage: Storage, scenario_id: str) -> tuple[str, str]:
    """A stored scenario's game and text; 404 when there is none."""
    found: tuple[str, str] = await read_found(storage, storage.custom_scenario, scenario_id,
                                              msg("server.thing.customScenario"))
    return found


async def with_custom_scenario(storage: Storage, request: CreateGame) -> CreateGame:
    """``POST /api/games`` with ``custom_scenario``: the request with the game options of that
    stored scenario laid under its own."""
    if request.custom_scenario is None:
        return request
    game, text = await stored(storage, request.custom_scenario)
    if game != request.game:
        raise Refused(msg("server.scenarioOfAnother", scenario=repr(request.custom_scenario),
                          game=repr(game), asked=repr(request.game)), 422)
    options = {**setups_of(game).options_for(text), **request.options}
    return request.model_copy(update={"options": options, "custom_scenario": None})


def custom_scenario_routes(storage: Storage, quotas: Quotas) -> APIRouter:
    routes = APIRouter()

    @routes.post("/api/scenarios/check")
    async def check_scenario(request: Request) -> dict[str, Any]:
        body = parse_body(await read_body(request), ScenarioBody)
        return answer(await asyncio.to_thread(check, body))

    @routes.post("/api/scenarios", status_code=201)
    async def store_scenario(request: Request) -> dict[str, Any]:
        body = parse_body(await read_body(request), ScenarioBody)
        checked = await asyncio.to_thread(check, body)
        if not checked.ok:
            problem = checked.problems[0]
            raise Refused(msg("server.scenarioInvalid", field=problem.field,
                              problem=problem.msg or problem.problem), 422)
        wait = quotas.new_scenario(client_of(request.scope))
        if wait is not None:
            raise TooMany(msg("server.tooManyScenarios", most=quotas.scenarios_per_hour), wait)
        scenario_id = tokens.new_game_id()
        try:
            await storage.write(storage.add_custom_scenario, scenario_id, body.game,
                                checked.text)
        except StorageError as exc:
            raise unavailable(msg("server.scenarioUnstored"), exc) from None
        return {"id": scenario_id, "game": body.game, "url": f"/editor?scenario={scenario_id}",
                "summary": checked.summary}

    @routes.get("/api/scenarios/custom/{scenario_id}")
    async def get_scenario(scenario_id: str = PathParam(pattern=SCENARIO_ID)
                           ) -> dict[str, Any]:
        game, text = await stored(storage, scenario_id)
        checked = await asyncio.to_thread(setups_of(game).check_text, text)
        return {"id": scenario_id, "game": game, **answer(checked)}

    return routes
