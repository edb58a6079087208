"""tokens.py - a game's control token: who may drive it over HTTP.

The token is 256 random bits (URL-safe base64), minted when a game is
created over HTTP and returned once, to its creator. The store keeps only
its SHA-256 (a hash of a high-entropy secret needs no salt or key to be
unguessable), so every instance sharing the database can check it after a
failover, and a leaked database discloses no token. Comparison is
constant-time (`hmac.compare_digest`) so timing tells nothing about how
close a guess was.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

TOKEN_BYTES = 32


def mint() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def matches(token: str, kept_hash: str | None) -> bool:
    """Whether `token` is the one whose hash was kept (constant time in the token's value)."""
    if kept_hash is None:
        return False
    return hmac.compare_digest(digest(token).encode("ascii"), kept_hash.encode("ascii"))
