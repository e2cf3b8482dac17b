"""Game ids and seat tokens: random, and tokens are stored only as their sha256."""

from __future__ import annotations

import hashlib
import re
import secrets

GAME_ID_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"  # no 0/o, 1/l
GAME_ID_LENGTH = 10
GAME_ID = re.compile(f"[{GAME_ID_ALPHABET}]{{{GAME_ID_LENGTH}}}")
TOKEN_MAX_LENGTH = 100


def new_game_id() -> str:
    return "".join(secrets.choice(GAME_ID_ALPHABET) for _ in range(GAME_ID_LENGTH))


def is_game_id(text: str) -> bool:
    return GAME_ID.fullmatch(text) is not None


def new_token() -> str:
    """A seat's secret: 32 url-safe characters (192 bits)."""
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_seed() -> int:
    """A game's seed: chance and the computer's choices are drawn from it (63 bits, so it fits
    a signed 64-bit column)."""
    return secrets.randbits(63)
