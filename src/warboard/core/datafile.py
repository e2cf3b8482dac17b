"""Reading TOML data files with validation errors that name the file, the field and the problem."""

from __future__ import annotations

import builtins
import os
import reprlib
import stat
import tomllib
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from warboard.core.errors import DataFileError
from warboard.core.i18n import Msg, english, msg

MAX_FILE_BYTES = 1 << 20  # a scenario or ruleset is a few KiB
_KINDS = {stat.S_IFDIR: "a folder", stat.S_IFIFO: "a FIFO", stat.S_IFCHR: "a character device",
          stat.S_IFBLK: "a block device", stat.S_IFSOCK: "a socket"}
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # not on Windows, which has no FIFOs to open


def load_toml(path: str | Path, max_bytes: int = MAX_FILE_BYTES) -> tuple[str, dict[str, Any]]:
    """Read a TOML file of at most ``max_bytes``; returns (display name, data). Anything but a
    regular file (a FIFO, a device, a folder) is refused before it is opened, so reading never
    blocks; every problem is a ``DataFileError`` naming the file."""
    name = str(path)
    try:
        _check_file(name, os.stat(path), max_bytes)
        # non-blocking, in case the path became a FIFO since the stat; fstat sees what was opened
        with open(path, "rb", opener=lambda p, flags: os.open(p, flags | _NONBLOCK)) as f:
            _check_file(name, os.fstat(f.fileno()), max_bytes)
            data = f.read(max_bytes + 1)  # a /proc file's size says 0, whatever it holds
    except OSError as exc:
        raise DataFileError(name, "(file)", f"cannot be read: {exc.strerror or exc}") from exc
    if len(data) > max_bytes:
        raise DataFileError(name, "(file)", f"is larger than {_size(max_bytes)}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataFileError(name, "(file)", f"is not UTF-8 text (byte {exc.start})") from None
    return name, parse_toml(name, text)


def _check_file(name: str, st: os.stat_result, max_bytes: int) -> None:
    if not stat.S_ISREG(st.st_mode):
        kind = _KINDS.get(stat.S_IFMT(st.st_mode), "not a file")
        raise DataFileError(name, "(file)", f"is not a regular file ({kind})")
    if st.st_size > max_bytes:
        raise DataFileError(name, "(file)", f"is larger than {_size(max_bytes)}")


def _size(n: int) -> str:
    return f"{n >> 20} MiB" if n and n % (1 << 20) == 0 else f"{n} bytes"


def load_packaged_toml(package: str, filename: str) -> tuple[str, dict[str, Any]]:
    """Read a TOML file shipped inside a package."""
    ref = resources.files(package).joinpath(filename)
    name = f"{package.replace('.', '/')}/{filename}"
    try:
        text = ref.read_text(encoding="utf-8")
    except (OSError, FileNotFoundError) as exc:
        raise DataFileError(name, "(file)", "is missing from the package") from exc
    return name, parse_toml(name, text)


def packaged_names(package: str) -> tuple[str, ...]:
    """The stems of the TOML files shipped in ``package``, sorted: the names it ships."""
    folder = resources.files(package)
    return tuple(sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml")))


def known_name(name: object, names: tuple[str, ...], kind: str) -> str:
    """``name`` when it is one of ``names``; anything else (a path included) is a
    ``ValueError`` that lists them (``kind``: "scenario")."""
    if isinstance(name, str) and name in names:
        return name
    what = (f"unknown {kind} {reprlib.repr(name)}" if isinstance(name, str) else
            f"the {kind} must be a {kind} name, not {type_name(name)}")
    raise ValueError(f"{what}; {kind}s: {', '.join(names)}")


def parse_toml(name: str, text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataFileError(name, "(syntax)", msg("datafile.syntax", reason=str(exc))) from exc


class Fields:
    """A view of one TOML table that checks types and reports unknown keys.

    >>> f = Fields("x.toml", "units.tank", {"count": 3})
    >>> f.int("count", minimum=0)
    3
    """

    def __init__(self, path: str, where: str, table: Any) -> None:
        self.path = path
        self.where = where
        if not isinstance(table, Mapping):
            raise DataFileError(path, where, msg("datafile.notTable", type=type_msg(table)))
        self.table: Mapping[str, Any] = table
        self.seen: set[str] = set()

    def field(self, key: str) -> str:
        return f"{self.where}.{key}" if self.where else key

    def error(self, key: str, problem: str | Msg) -> DataFileError:
        return DataFileError(self.path, self.field(key), problem)

    def has(self, key: str) -> bool:
        return key in self.table

    def raw(self, key: str, default: Any = ..., required: bool = True) -> Any:
        self.seen.add(key)
        if key in self.table:
            return self.table[key]
        if default is not ...:
            return default
        raise self.error(key, msg("datafile.missing"))

    def str(self, key: str, default: Any = ..., choices: tuple[str, ...] = ()) -> str:
        value = self.raw(key, default)
        if not isinstance(value, str) or not value:
            raise self.error(key, msg("datafile.notNonEmptyString", type=type_msg(value)))
        if choices and value not in choices:
            raise self.error(key, msg("datafile.notOneOf", choices=", ".join(choices),
                                      value=repr(value)))
        return value

    def int(self, key: builtins.str, default: Any = ..., minimum: int | None = None,
            maximum: int | None = None) -> int:
        value = self.raw(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(key, not_whole(value))
        if minimum is not None and value < minimum:
            raise self.error(key, msg("datafile.tooSmall", minimum=minimum, value=value))
        if maximum is not None and value > maximum:
            raise self.error(key, msg("datafile.tooLarge", maximum=maximum, value=value))
        return value

    def bool(self, key: builtins.str, default: Any = ...) -> bool:
        value = self.raw(key, default)
        if not isinstance(value, bool):
            raise self.error(key, msg("datafile.notBool", type=type_msg(value)))
        return value

    def sub(self, key: builtins.str, default: Any = ...) -> Fields:
        return Fields(self.path, self.field(key), self.raw(key, default))

    def finish(self) -> None:
        """Reject keys nobody asked for (most often a typo)."""
        unknown = sorted(set(self.table) - self.seen)
        if unknown:
            raise self.error(unknown[0], msg("datafile.unknownField"))


_TYPES: dict[type, Msg] = {
    bool: msg("datafile.type.boolean"), int: msg("datafile.type.number"),
    float: msg("datafile.type.number"), str: msg("datafile.type.string"),
    list: msg("datafile.type.list"), dict: msg("datafile.type.table")}


def type_msg(value: Any) -> Msg | str:
    """What ``value`` is, as a message ("a string"); a type TOML has no word for by its name."""
    return _TYPES.get(type(value), type(value).__name__)


def type_name(value: Any) -> str:
    return english(type_msg(value))


def not_whole(value: Any) -> Msg:
    """The problem of a value that is not a whole number."""
    return msg("datafile.notWhole", type=type_msg(value))
