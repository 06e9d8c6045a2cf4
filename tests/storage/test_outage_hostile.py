"""Hostile cases of the database outage (bot/storage/errors.py, `StorageUnavailable`) on real backends: the
password given as the URL's `password=` query parameter (asyncpg takes it there too) must not reach the outage's
cause either, and a bug of ours (a write in a transaction we opened read-only) is not an outage."""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

from bot.storage import Storage, StorageUnavailable
from bot.storage.backends import redact
from bot.storage.executor import Tx
from tests import postgres
from tests.storage.conftest import DEFAULTS, GUILD, create_login_role

ALICE = 101
PASSWORD = "qu3ry-Pa55word"


def with_query_password(url: str, user: str, password: str) -> str:
    """`url` for `user`, its password as the `password=` query parameter (not in the netloc)."""
    parts = urlsplit(url)
    host = parts.netloc.rsplit("@", 1)[-1]
    query = "&".join(q for q in (parts.query, f"password={password}") if q)
    return urlunsplit(parts._replace(netloc=f"{user}@{host}", query=query))


def test_redact_hides_a_password_given_as_a_query_parameter() -> None:
    assert PASSWORD not in redact(f"postgresql://poker@db.example:5432/poker?password={PASSWORD}")
    assert PASSWORD not in redact(f"postgresql://poker@db.example/poker?sslmode=require&password={PASSWORD}&x=1")
    assert redact("postgresql://poker@db.example/poker?sslmode=require") == (
        "postgresql://poker@db.example/poker?sslmode=require"
    )


async def test_a_password_in_the_url_query_is_not_in_the_outage_cause_nor_any_log(
    own_server: Any,
    caplog: pytest.LogCaptureFixture,
) -> None:
    admin = str(own_server.get_uri())
    await create_login_role(admin, "poker", PASSWORD)
    url = with_query_password(admin, "poker", PASSWORD)
    caplog.set_level(logging.DEBUG)
    store = await Storage.open(url, defaults=DEFAULTS)
    try:
        await store.adjust(GUILD, ALICE, 500, "test")
        own_server.cleanup()
        with pytest.raises(StorageUnavailable) as refused:
            await store.adjust(GUILD, ALICE, 500, "test")
        assert PASSWORD not in refused.value.cause and PASSWORD not in str(refused.value)
        own_server.ensure_postgres_running()
    finally:
        await store.close()
    assert PASSWORD not in caplog.text


async def test_a_write_in_a_read_only_transaction_is_a_bug_not_an_outage() -> None:
    store = await Storage.open(await postgres.database_url(), defaults=DEFAULTS)

    async def writes(tx: Tx) -> int:
        return await tx.execute("UPDATE shard_leases SET expires_at = 0")

    try:
        with pytest.raises(Exception) as raised:
            await store.executor.read(writes)
        assert not isinstance(raised.value, StorageUnavailable), raised.value
    finally:
        await store.close()
