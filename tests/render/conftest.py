"""Fixtures for the render tests: a clean "logged once" memory for each test."""

import pytest

from bot.render import i18n


@pytest.fixture(autouse=True)
def _fresh_warnings():
    i18n._warned.clear()
    yield
    i18n._warned.clear()
