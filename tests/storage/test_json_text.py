"""The JSON text bot.storage stores (`bot.storage.models.dumps`): the standard library's text, written faster."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.storage.models import dumps, loads


def json_values(floats: st.SearchStrategy[float]) -> st.SearchStrategy[object]:
    return st.recursive(
        st.none() | st.booleans() | st.integers() | floats | st.text(),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
        max_leaves=20,
    )


# What the storage keeps: states, records, actions, outbox payloads (strings, ints, times and amounts, lists,
# objects); floats written without an exponent (0 and 1e-4 <= |x| < 1e16: Unix times, fractions).
plain_floats = st.floats(min_value=-1e15, max_value=1e15).filter(lambda x: x == 0 or abs(x) >= 1e-4)
any_floats = st.floats(allow_nan=False, allow_infinity=False)


def standard(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@given(json_values(plain_floats))
def test_the_text_is_the_standard_library_s_and_reads_back_as_the_value(value: object) -> None:
    assert dumps(value) == standard(value)
    assert loads(dumps(value)) == value


@given(json_values(any_floats))
def test_any_float_reads_back_as_the_same_value(value: object) -> None:
    """A float with an exponent may be spelled otherwise ("1e-9", the standard library "1e-09"): same value."""
    assert loads(dumps(value)) == value == loads(standard(value))


def test_what_orjson_refuses_is_written_by_the_standard_library() -> None:
    for value in ({"big": 2**70, "small": -(2**70)}, {"lone": "\ud800"}):
        assert dumps(value) == standard(value)


def test_a_value_json_cannot_hold_raises_type_error() -> None:
    with pytest.raises(TypeError):
        dumps({"thing": object()})
