"""A table's `TableMemo` (what its last picture pasted, taken by its next one): the pictures drawn through it are
the very bytes of the pictures drawn without it, whatever the series of scenes; it keeps one picture's seats and
texts, and the table's names up to `OWN_TEXTS`; a picture that fails half-way leaves it as it was."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.render.picture import TableMemo, draw, draw_table, samples, scene_from_snapshot, sprites
from bot.render.picture.memo import OWN_TEXTS
from bot.render.picture.scene import TableScene


def _varied(scene: TableScene, rng: random.Random) -> TableScene:
    """`scene` with some of its seats changed as between two pictures of a table: a stack, a name, a fold."""
    seats = list(scene.seats)
    for i, seat in enumerate(seats):
        roll = rng.random()
        if roll < 0.15:
            seats[i] = dataclasses.replace(seat, stack=rng.randrange(0, 10**7))
        elif roll < 0.2:
            seats[i] = dataclasses.replace(seat, name=rng.choice(samples.NAMES) + f" {rng.randrange(100)}")
        elif roll < 0.25:
            seats[i] = dataclasses.replace(seat, state="folded", dealt=False, is_actor=False)
    return dataclasses.replace(scene, seats=tuple(seats))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    checks=st.booleans(),
    hands=st.integers(1, 3),
    vary=st.floats(0, 1),
    clear=st.booleans(),
)
def test_pictures_drawn_through_a_memo_are_the_pictures_drawn_without_one(
    seed: int, checks: bool, hands: int, vary: float, clear: bool
) -> None:
    """Three tables' streets and results in turn (as the picture thread draws them), some of their seats changed
    at random between pictures, a memo per table: every picture is byte for byte the one drawn without a memo
    (and with the process's caches emptied first, when `clear`)."""
    rng = random.Random(seed)
    memos = [TableMemo() for _ in range(3)]
    if clear:
        sprites.clear_caches()
    for i, (snapshot, result) in enumerate(samples.table_series(3, hands, seed=seed, checks=checks)):
        scene = scene_from_snapshot(snapshot, result)
        if rng.random() < vary:
            scene = _varied(scene, rng)
        assert draw_table(scene, memos[i % 3]) == draw_table(scene), i


@pytest.mark.parametrize("name", sorted(samples.golden_scenes()))
def test_every_golden_scene_drawn_through_a_memo_twice_is_the_same_picture(name: str) -> None:
    scene = samples.golden_scenes()[name]
    memo = TableMemo()
    first = draw_table(scene, memo)
    assert draw_table(scene, memo) == first == draw_table(scene)


def test_a_memo_keeps_what_the_last_picture_pasted_and_the_names_up_to_a_bound() -> None:
    series = samples.table_series(1, 3, seed=4)
    memo = TableMemo()
    for snapshot, result in series:
        draw_table(scene_from_snapshot(snapshot, result), memo)
        # one picture's seats (six), its texts (title, blinds, pots, states, hand names) and names
        assert 6 < len(memo) <= 6 + 20 + OWN_TEXTS
    # a table whose players keep changing names never keeps more than OWN_TEXTS of them
    snapshot, _ = series[0]
    scene = scene_from_snapshot(snapshot)
    for n in range(40):
        renamed = tuple(dataclasses.replace(s, name=f"Player {n}-{s.seat}") for s in scene.seats)
        draw_table(dataclasses.replace(scene, seats=renamed), memo)
    assert len(memo._own) == OWN_TEXTS


def test_a_picture_that_fails_half_way_leaves_the_memo_as_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    snapshot, _ = samples.table_series(1, 1, seed=4)[0]
    scene = scene_from_snapshot(snapshot)
    memo = TableMemo()
    picture = draw_table(scene, memo)
    kept = (dict(memo._seats), dict(memo._texts))

    def broken(*args: object, **kwargs: object) -> object:
        raise RuntimeError("no pieces")

    monkeypatch.setattr(draw, "_seat_pieces", broken)
    changed = dataclasses.replace(scene, seats=(dataclasses.replace(scene.seats[0], stack=1), *scene.seats[1:]))
    with pytest.raises(RuntimeError):
        draw_table(changed, memo)
    assert (memo._seats, memo._texts) == kept
    monkeypatch.undo()
    assert draw_table(scene, memo) == picture


def test_chip_counts_do_not_push_the_names_out_of_the_kept_fits() -> None:
    """`sprites.fit` keeps no number (new chip counts at nearly every picture): 5,000 of them leave a name's fit
    kept, and are fitted as a text is (the largest size that fits, cut at the smallest)."""
    sprites.fit("Jean-Sébastien 12", 28, 150, 20)
    for n in range(5000):
        assert sprites.fit(f"{n * 7919:,}", 28, 60, 20)[1] in range(20, 29, 2)
    hits = sprites._kept_fit.cache_info().hits
    sprites.fit("Jean-Sébastien 12", 28, 150, 20)
    assert sprites._kept_fit.cache_info().hits == hits + 1
    words, size = sprites.fit("1,234,567", 28, 40, 20)
    assert size == 20 and words.endswith("…") and sprites.text_length(words, 20) <= 40
