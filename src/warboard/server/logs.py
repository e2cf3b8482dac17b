"""The server's log: every logger (Uvicorn's and warboard's) through one handler on standard
error, as text lines (``INFO:     ...``, Uvicorn's own look) or one JSON object per line, with the
seats' tokens blanked in both.

Events about a game carry ``game_id`` (and ``seat`` where one seat did it) as ``extra`` fields,
which the JSON lines show as keys of their own.
"""

from __future__ import annotations

import logging
import re
import sys

from pythonjsonlogger.core import RESERVED_ATTRS
from pythonjsonlogger.json import JsonFormatter
from uvicorn.logging import DefaultFormatter

from warboard.server.settings import ServerSettings

TOKEN_IN_URL = re.compile(r"(\btokens?=)[^&\s\"]+")
UVICORN_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi")
TEXT_FORMAT = "%(levelprefix)s %(message)s"
JSON_FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"
JSON_NAMES = {"asctime": "time", "levelname": "level", "name": "logger"}
# Uvicorn's coloured copy of some messages: no use in JSON
NOT_IN_JSON = (*RESERVED_ATTRS, "color_message")


def hide_tokens(text: str) -> str:
    return TOKEN_IN_URL.sub(r"\1***", text)


class HideTokens(logging.Filter):
    """Blanks the seats' tokens in logged URLs (``?token=...`` -> ``?token=***``): in the
    arguments of Uvicorn's access and WebSocket lines, and in a message itself."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = hide_tokens(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(hide_tokens(a) if isinstance(a, str) else a
                                for a in record.args)
        return True


def formatter(log_format: str) -> logging.Formatter:
    if log_format == "json":
        return JsonFormatter(JSON_FORMAT, rename_fields=JSON_NAMES, reserved_attrs=NOT_IN_JSON)
    return DefaultFormatter(TEXT_FORMAT, use_colors=False)


def configure_logging(settings: ServerSettings) -> None:
    """Send every log record at ``log_level`` or above through one handler in ``log_format``,
    in place of whatever was set up before (Uvicorn's own handlers, when it runs the app
    factory)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(HideTokens())
    handler.setFormatter(formatter(settings.log_format))
    root = logging.getLogger()
    root.handlers = [handler]
    root.setLevel(settings.log_level.upper())
    for name in UVICORN_LOGGERS:
        logger = logging.getLogger(name)
        logger.handlers = []
        logger.propagate = True
        logger.setLevel(logging.NOTSET)
