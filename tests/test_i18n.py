"""The browser client's message catalogues (issue 13, point 5): English and Japanese have the
same keys, each file is a flat sorted object of its own namespace, every placeholder of an
English text is in its Japanese one, and every key the client names literally (``t("...")`` in
the JavaScript, ``data-i18n*="..."`` in index.html) is in both.
"""

from __future__ import annotations

import itertools
import json
import re
import tomllib
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[1] / "src/warboard/web"
I18N = WEB / "i18n"
LANGS = ("en", "ja")
PLACEHOLDER = re.compile(r"\{(\w+)\}")
# t("key" / tRich("key" / t('key' / t(`key` (a template without ${...}); data-i18n="key",
# data-i18n-title="key"
USED_IN_JS = re.compile(r"""\bt(?:Rich)?\(\s*(?:"([^"]+)"|'([^']+)'|`([^`$]+)`)""")
USED_IN_HTML = re.compile(r'data-i18n(?:-[\w-]+)?="([^"]+)"')


def catalogue(lang: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for path in sorted((I18N / lang).glob("*.json")):
        out.update(json.loads(path.read_text(encoding="utf-8")))
    return out


def used_keys() -> set[str]:
    keys: set[str] = set()
    for path in sorted((WEB / "js").rglob("*.js")):
        for m in USED_IN_JS.finditer(path.read_text(encoding="utf-8")):
            keys.add(next(g for g in m.groups() if g))
    for m in USED_IN_HTML.finditer((WEB / "index.html").read_text(encoding="utf-8")):
        keys.add(m.group(1))
    return keys


def test_both_languages_have_the_same_files() -> None:
    names = {lang: sorted(p.name for p in (I18N / lang).glob("*.json")) for lang in LANGS}
    assert names["en"] == names["ja"]
    assert "common.json" in names["en"]


@pytest.mark.parametrize("lang", LANGS)
def test_each_file_is_a_flat_sorted_object_of_its_namespace(lang: str) -> None:
    for path in sorted((I18N / lang).glob("*.json")):
        text = path.read_text(encoding="utf-8")
        data = json.loads(text)
        assert isinstance(data, dict), path
        assert list(data) == sorted(data), f"{path}: keys not sorted"
        for key, value in data.items():
            assert key.startswith(path.stem + "."), f"{path}: {key} is not in its namespace"
            assert isinstance(value, str) and value.strip(), f"{path}: {key} has no text"
        if data:
            assert text.count("\n") == len(data) + 2, f"{path}: not one key per line"


def test_english_and_japanese_have_the_same_keys() -> None:
    en, ja = catalogue("en"), catalogue("ja")
    assert sorted(set(en) - set(ja)) == [], "missing in Japanese"
    assert sorted(set(ja) - set(en)) == [], "missing in English"


def test_every_placeholder_of_english_is_in_japanese() -> None:
    en, ja = catalogue("en"), catalogue("ja")
    for key, text in en.items():
        want = set(PLACEHOLDER.findall(text))
        assert want <= set(PLACEHOLDER.findall(ja.get(key, ""))), key


def test_plurals_come_in_pairs() -> None:
    en = catalogue("en")
    for key in en:
        if key.endswith("_one"):
            assert key[: -len("_one")] + "_other" in en, key


def test_every_key_the_client_names_is_in_both_catalogues() -> None:
    used = used_keys()
    assert len(used) > 20  # the scan found the client's calls
    for lang in LANGS:
        cat = catalogue(lang)
        missing = sorted(k for k in used if k not in cat and f"{k}_other" not in cat)
        assert missing == [], f"{lang}: {missing}"


def test_every_name_of_the_three_games_is_in_the_catalogue() -> None:
    """The names the client looks up by a code the server sends (``names.<game>.unit.<code>``
    and the like, keys no literal ``t("...")`` shows): every unit of both card rulesets, every
    Hold the Line terrain and unit kind, every packaged scenario and campaign."""
    root = Path(__file__).resolve().parents[1] / "src/warboard"
    wanted = []
    for game in ("hill218", "ogre218"):
        rules = tomllib.loads((root / f"hill218/rulesets/{game}.toml").read_text(encoding="utf-8"))
        wanted += [f"names.{game}.unit.{u}" for u in rules["units"]]
        wanted += [f"names.{game}.{k}" for k in ("title", "short", "strike", "strikes", "hill",
                                                 "base", "support", "side.0", "side.1")]
    tables = tomllib.loads((root / "holdtheline/tables.toml").read_text(encoding="utf-8"))
    wanted += [f"names.holdtheline.terrain.{t}" for t in tables["terrain"]]
    wanted += [f"names.holdtheline.unit.{u}" for u in tables["units"]]
    wanted += [f"names.holdtheline.{kind[:-1]}.{p.stem}" for kind in ("scenarios", "campaigns")
               for p in sorted((root / "holdtheline" / kind).glob("*.toml"))]
    for lang in LANGS:
        cat = catalogue(lang)
        assert sorted(k for k in wanted if k not in cat) == [], lang


def test_the_page_without_scripts_says_why_in_both_languages() -> None:
    """No catalogue is read without JavaScript: index.html's <noscript> says it in both."""
    page = (WEB / "index.html").read_text(encoding="utf-8")
    noscript = page[page.index("<noscript>"):page.index("</noscript>")]
    assert "needs JavaScript" in noscript and 'lang="ja"' in noscript and "必要です" in noscript


# t(`lobby.level.${v}`: a key put together at run time, from a namespace of the catalogues
BUILT_IN_JS = re.compile(r"\bt(?:Rich)?\(\s*`((?:[a-z]+)\.[^`]*\$\{[^`]*)`")


def test_every_key_the_client_puts_together_has_catalogue_keys_of_its_shape() -> None:
    """A key made at run time (``t(`common.${touch ? "tap" : "click"}`)``) cannot be looked up
    as it is written: each ``${...}`` stands for a run of name characters, and both catalogues
    must have a key of that shape; where the choices are written out as string literals, each
    choice's key."""
    built = {m.group(1) for path in sorted((WEB / "js").rglob("*.js"))
             for m in BUILT_IN_JS.finditer(path.read_text(encoding="utf-8"))}
    assert "lobby.level.${v}" in built  # the scan found the client's calls
    for template in built:
        shape = re.compile("".join(r"\w+" if part.startswith("${") else re.escape(part)
                                   for part in re.split(r"(\$\{[^}]*\})", template)) + "$")
        choices = [re.findall(r'"(\w*)"', part) for part in re.findall(r"\$\{[^}]*\}", template)]
        for lang in LANGS:
            keys = [k.removesuffix("_one").removesuffix("_other") for k in catalogue(lang)]
            assert any(shape.match(k) for k in keys), f"{lang}: no key like {template}"
            if choices and all(choices):
                statics = re.split(r"\$\{[^}]*\}", template)
                for combo in itertools.product(*choices):
                    key = "".join(a + b for a, b in zip(statics, (*combo, ""), strict=True))
                    assert key in keys, f"{lang}: {key} (from {template})"
