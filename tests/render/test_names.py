"""Display names in public messages: no bidirectional control or other invisible format character survives
`escape_name`, the one place names are made safe (with mentions and markdown)."""

import sys
import unicodedata

import pytest

from bot.poker import ActionKind, PlayerActed
from bot.render import escape_name, render_event_line
from bot.render.embeds import strip_invisible

#: Unicode's Bidi_Control property (PropList.txt).
BIDI_CONTROLS = [
    "\u061c",
    "\u200e",
    "\u200f",
    *map(chr, range(0x202A, 0x202F)),
    *map(chr, range(0x2066, 0x206A)),
]
FORMAT_CHARACTERS = [chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Cf"]
KEPT = {"\u200c", "\u200d", *map(chr, range(0xE0020, 0xE0080))}


@pytest.mark.parametrize("control", BIDI_CONTROLS, ids=lambda c: f"U+{ord(c):04X}")
def test_no_bidirectional_control_reaches_a_message(control):
    assert escape_name(f"alice{control}ecila") == "aliceecila"
    assert escape_name(control) == "?"


def test_a_right_to_left_override_cannot_reverse_what_follows_the_name():
    line = render_event_line(PlayerActed(0, ActionKind.FOLD, 0, 0, False), ["\u202eBob"], "en")
    assert line == "Bob folds"


def test_every_invisible_format_character_is_stripped_except_joiners_and_flag_tags():
    stripped = [c for c in FORMAT_CHARACTERS if strip_invisible(f"a{c}b") == "ab"]
    assert set(FORMAT_CHARACTERS) - set(stripped) == KEPT
    assert {"\u200b", "\u2060", "\ufeff", "\u00ad", "\ufff9"} <= set(stripped)


def test_emoji_sequences_and_scripts_keep_their_joiners():
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    england = "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"
    persian = "می\u200cخواهم"
    for name in (family, england, persian, "Chloé", "Zoë 🂡"):
        assert escape_name(name) == name
