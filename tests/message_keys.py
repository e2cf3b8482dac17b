"""What a module's source says with ``msg("NAMESPACE.KEY", param=...)`` (``core.i18n``),
checked against a namespace of the client's catalogues: every key the code names is in both
languages with exactly the params the code gives it, and every key of the namespace is named.
For the namespaces whose words the server makes (``server``, ``datafile``)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path

from warboard.core.i18n import I18N, PLACEHOLDER

LANGS = ("en", "ja")
PARAM = re.compile(r"\b(\w+)=")


def namespace_words(namespace: str, lang: str) -> dict[str, str]:
    return json.loads((I18N / lang / f"{namespace}.json").read_text(encoding="utf-8"))


def keys_named(namespace: str, sources: Iterable[Path]) -> dict[str, set[str]]:
    """Each ``NAMESPACE.*`` key ``sources`` name, with the params given it (calls in the params
    two deep)."""
    used = re.compile(rf'\bmsg\(\s*"({re.escape(namespace)}\.[^"]+)"'
                      r"((?:[^()]|\((?:[^()]|\([^()]*\))*\))*)\)")
    out: dict[str, set[str]] = {}
    for path in sources:
        for m in used.finditer(path.read_text(encoding="utf-8")):
            out.setdefault(m.group(1), set()).update(PARAM.findall(m.group(2)))
    return out


def assert_named_keys_in_both_catalogues(namespace: str, sources: Iterable[Path],
                                         at_least: int) -> None:
    keys = keys_named(namespace, sources)
    assert len(keys) > at_least  # the scan found the messages
    for lang in LANGS:
        words = namespace_words(namespace, lang)
        assert sorted(set(keys) - set(words)) == [], lang
        for key, params in keys.items():
            assert set(PLACEHOLDER.findall(words[key])) == params, (lang, key)


def assert_every_key_named(namespace: str, sources: Iterable[Path]) -> None:
    assert sorted(set(namespace_words(namespace, "en")) - set(keys_named(namespace, sources))) == []
