"""Who may see which cards in a hand history (rule book 000 §06 the showdown, 002 mucked hands stay unseen),
and the PHH export written for one viewer."""

from bot.poker import HoleCardsDealt, Viewer, parse_cards
from bot.poker.phh import dump_hand, loads, replay
from tests.poker.helpers import new_hand, play


def _showdown_hand():
    # Three players to a showdown: p0 shows A♥ K♥, p2 (Q♠ Q♦) loses and mucks or shows, p1 folded preflop.
    hand = new_hand([100, 100, 100], ["AhKh", "7c2d", "QsQd"], "Kd 9s 4c 3h 2s")
    play(hand, "p2 raise 6", "p0 call", "p1 fold", *["check"] * 6)
    return hand


def test_a_viewer_sees_their_own_cards_and_the_shown_ones_never_a_folded_hand():
    hand = _showdown_hand()
    folded = Viewer(1)
    assert folded.sees_hole_cards(hand, 1)
    assert folded.sees_hole_cards(hand, 0)  # shown at the showdown
    spectator = Viewer(None)
    assert not spectator.sees_hole_cards(hand, 1)
    dealt = [e.player for e in spectator.events(hand) if isinstance(e, HoleCardsDealt)]
    assert dealt == []
    assert [e.player for e in folded.events(hand) if isinstance(e, HoleCardsDealt)] == [1]


def test_the_phh_export_for_a_viewer_writes_unseen_cards_as_unknown_and_still_replays():
    hand = _showdown_hand()
    text = dump_hand(hand, viewer=Viewer(None))
    assert '"d dh p2 ????"' in text  # p1 (PHH p2) folded: nobody else sees 7♣ 2♦
    assert "7c" not in text and "2d" not in text
    assert '"d dh p1 AhKh"' in text
    own = dump_hand(hand, viewer=Viewer(1))
    assert '"d dh p2 7c2d"' in own
    full = dump_hand(hand)
    assert "7c2d" in full and "????" not in full
    replayed = replay(loads(text)[0])
    assert replayed.finishing_stacks == hand.finishing_stacks
    assert replayed.board == parse_cards("Kd 9s 4c 3h 2s")
