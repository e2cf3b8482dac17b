"""Messages for people in any language: a message is ``{"key", "params"}``, its words are in
the client's catalogues (``warboard/web/i18n/<lang>/<namespace>.json``, docs/server-api.md).

The server says things in English for the terminal, the records and its older callers, and sends
the message next to the English so that a client can say it in its reader's language. The
English is made from the English catalogue (``english``), so the two never differ. A param is a
plain value or a message itself (a unit's name, a side's); a key with ``_one`` / ``_other``
forms is chosen by the ``count`` param.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

Msg = dict[str, Any]
I18N = Path(__file__).resolve().parent.parent / "web" / "i18n"
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def msg(key: str, **params: Any) -> Msg:
    return {"key": key, "params": params}


@cache
def catalogue(lang: str) -> dict[str, str]:
    """Every key of ``lang``'s catalogues."""
    out: dict[str, str] = {}
    for path in sorted((I18N / lang).glob("*.json")):
        out.update(json.loads(path.read_text(encoding="utf-8")))
    return out


def has_key(key: str) -> bool:
    """Whether the English catalogue says ``key`` (as it is, or in plural forms)."""
    words = catalogue("en")
    return key in words or key + "_other" in words


def named(key: str, english: str) -> Msg | str:
    """The message of a catalogue's name, or the English name where no catalogue has it (a
    ruleset or scenario of one's own)."""
    return msg(key) if has_key(key) else english


def form(words: dict[str, str], key: str, params: dict[str, Any]) -> str:
    """The key of ``words`` that says ``key`` with ``params``: its plural form when it has one."""
    if key in words or "count" not in params:
        return key
    return key + ("_one" if params["count"] == 1 else "_other")


def say(message: Msg | Any, lang: str, names: Mapping[str, str] | None = None) -> str:
    """``message`` in ``lang``; a plain param as it is, or as ``names`` says it (a scenario's
    places and leaders in ``lang``, as the client's glossary does)."""
    if not isinstance(message, dict):
        return str(names.get(message, message) if names and isinstance(message, str)
                   else message)
    words = catalogue(lang)
    params = message.get("params") or {}
    template = words[form(words, message["key"], params)]
    return PLACEHOLDER.sub(lambda m: say(params[m.group(1)], lang, names), template)


def english(message: Msg | Any) -> str:
    return say(message, "en")


def joined(parts: list[Any], key: str = "log.list") -> Any:
    """``parts`` as one message: "a, b, c" (``key`` says two of them together)."""
    out = parts[0]
    for p in parts[1:]:
        out = msg(key, a=out, b=p)
    return out
