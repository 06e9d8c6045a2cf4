"""One deal of hold'em (no-limit, pot-limit or fixed-limit): forced bets, dealing, betting rounds, run-out,
showdown, pots.

Players are hand indexes 0..n-1 in PHH order: 0 is the first seat left of the button (the small
blind with 3 or more players), n-1 is the button. Heads-up, player 1 is the button: it posts the
small blind, acts first before the flop and last after it (rule book 000 §04); player 0 posts the
big blind. Chips are ints.

Rules implemented (rule book 000 §04-§07, 002 where 000 is silent; issue 3 rules 1-11):
- forced bets: antes (live by default, or dead), big-blind ante (dead, posted before the blind),
  small and big blind, optional straddle; a short stack posts what it has and is all-in.
- minimum bet = the big blind; minimum raise = the last full raise increment of the street
  (6 -> 14 -> at least 22; 20 -> 60 -> at least 100); the first preflop raise is to at least 2 BB
  (with a straddle, to at least 2 straddles). An all-in for less is always allowed.
- a short all-in does not reopen betting for a player who already acted: they may raise again only
  when facing at least a full raise since they last acted, so several short all-ins adding up to a
  full raise do reopen it (Poker TDA rule 47).
- a short big blind (all-in for less) still makes the others call the full big blind (TDA); the
  excess that nobody matched comes back like any uncalled bet.
- betting structures (`HandSettings.betting`, rule books 001 and 002; no-limit is the default of 000):
  - pot-limit: "la relance maximale équivaut à la taille actuelle du pot, call inclus" (002): the largest
    bet or raise is to current bet + (every chip in the middle, this street's bets included, + the call);
    blinds 1/2, first to act: at most to 7. The minimum bet and raise are as in no-limit; an all-in for
    less is always allowed.
  - fixed-limit: every bet and raise is exactly one unit, the small bet (the big blind) before the flop
    and on the flop, the big bet (2 big blinds) on the turn and the river (002 "souvent doublés au turn
    et à la river"); an all-in for less is allowed and, as in no-limit, does not reopen the betting for
    those who already acted; the next raise is to the all-in + one unit. Cap: one bet and three raises
    per street (002 "beaucoup de salles plafonnent le nombre de relances par rue"); preflop the big
    blind is the bet (and a straddle a raise), every bet or raise counts, an all-in for less too. The cap
    holds heads-up as well: the card-room exception that lifts it when two players are left is not taken
    (online rooms keep it, and with a turn timer endless raising only stretches the hand).
- missed blinds (002, `HandSettings.extra_blinds`): a player coming back posts a live big blind out of
  position (their bet, with the option like the big blind) and a dead small blind (dead money in the main
  pot); the action still starts left of the big blind.
- the big blind's option; players with no chips are skipped; when at most one player can still act
  and has matched, betting stops and the board is dealt out.
- uncalled bets go back to their author at the end of each betting round (a return, not a win).
- pots from contributions (bot.poker.pots); showdown order: last river bettor/raiser first, else the
  first player left of the button, clockwise; all hands shown when someone is all-in; otherwise a
  player who can't win mucks. Each pot split separately, odd chips one at a time from the button's
  left; side pots are paid before the main pot (rule book 002).

Two ways to deal: from a deck order (cards from the front: one hole card at a time starting left of
the button, then a burn card before flop, turn and river) — the normal way, fully automatic; or
`explicit_dealing=True` for replaying hand histories, where hole cards (possibly unknown), board
cards and showdown decisions are given step by step (`deal_hole`, `deal_board`, `show_hand`,
`muck_hand`).

Every public action has three parts (docs/architecture.md, Conventions 2): `verify_x()` raises a `PokerError`, `can_x()`
answers, `x()` acts and returns the frozen event. A refused action changes nothing.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.poker.cards import CARDS, Card, CardParseError, format_cards, parse_cards, shuffled_deck
from bot.poker.errors import (
    DealingError,
    HandOverError,
    IllegalActionError,
    InvalidAmountError,
    InvalidSetupError,
    NotYourTurnError,
    PokerError,
)
from bot.poker.evaluation import HandValue, evaluate, evaluate_distinct
from bot.poker.events import (
    ActionKind,
    BlindPosted,
    Event,
    HandEnded,
    HandMucked,
    HandShown,
    HoleCardsDealt,
    PlayerActed,
    PotAwarded,
    RunCountChosen,
    RunTwiceAnswered,
    ShownByChoice,
    Street,
    StreetDealt,
    UncalledBetReturned,
)
from bot.poker.pots import Pot, build_pots, split_pot
from bot.poker.settings import FIXED_LIMIT_BETS_PER_STREET, Betting, HandSettings

__all__ = ["Action", "Hand", "HandRecord", "LegalActions"]

#: _ROTATIONS[n][p]: the players after p clockwise, p last (hand indexes of an n-player hand).
_ROTATIONS = {n: tuple(tuple((p + k) % n for k in range(1, n + 1)) for p in range(n)) for n in range(2, 11)}

#: One recorded decision: (player, kind, amount for BET/RAISE else None).
Action = tuple[int, ActionKind, int | None]

_FOLD = ActionKind.FOLD
_CHECK = ActionKind.CHECK
_CALL = ActionKind.CALL
_BET = ActionKind.BET
_RAISE = ActionKind.RAISE
_ALL_IN = ActionKind.ALL_IN


@dataclass(frozen=True, slots=True)
class LegalActions:
    """What the player to act may do now (all amounts in chips).

    Attributes:
        player: the player to act.
        can_fold: facing a bet (folding is refused when checking is free).
        can_check: nothing to call.
        can_call / call_amount: chips to add to call, capped by the stack (0 when nothing to call).
        can_bet: no bet yet on this street and a bet is allowed.
        can_raise: there is a bet and a raise is allowed (betting open to this player, chips beyond
            the call, someone left who could answer; at fixed-limit, the street not capped).
        min_raise_to / max_raise_to: the allowed totals for this street of a bet or raise (bet and
            raise share them); min_raise_to is the all-in total when the stack is shorter than a
            full raise; None when neither bet nor raise is allowed. No-limit: max is the all-in;
            pot-limit: max is the pot-size raise (or the all-in when shorter); fixed-limit: min and
            max are the one allowed total (current bet + the street's unit, or the all-in when shorter).
        can_all_in / all_in_to: going all-in is allowed (as a call, bet or raise: at pot-limit and
            fixed-limit only when the whole stack is within max_raise_to), to this total bet.
    """

    player: int
    can_fold: bool
    can_check: bool
    can_call: bool
    call_amount: int
    can_bet: bool
    can_raise: bool
    min_raise_to: int | None
    max_raise_to: int | None
    can_all_in: bool
    all_in_to: int


@dataclass(frozen=True, slots=True)
class HandRecord:
    """Everything that defines a hand (docs/architecture.md, "The hand is its history"): rebuild it with
    `Hand.from_record`.

    Attributes:
        settings: the hand's settings.
        starting_stacks: chips of each player before the forced bets (hand index order).
        deck: the deck order used (cards dealt from the front).
        actions: the players' decisions in order: (player, kind, amount for BET/RAISE else None).
        run_twice: the answers to "run it twice?" in order: (number of `actions` before it, player, yes).
        shown: the cards shown by choice after the hand, in order: (player, cards).
    """

    settings: HandSettings
    starting_stacks: tuple[int, ...]
    deck: tuple[Card, ...]
    actions: tuple[Action, ...]
    run_twice: tuple[tuple[int, int, bool], ...] = ()
    shown: tuple[tuple[int, tuple[Card, ...]], ...] = ()

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: {"version": 1, "settings": {...}, "starting_stacks": [...], "deck": "AhKd...",
        "actions": [[player, "raise", 14], [player, "call", null], ...]}, and when there are any,
        "run_twice": [[actions before, player, true], ...] and "shown": [[player, "Ah"], ...]."""
        out: dict[str, Any] = {
            "version": 1,
            "settings": self.settings.to_json(),
            "starting_stacks": list(self.starting_stacks),
            "deck": format_cards(self.deck),
            "actions": [[p, kind.value, amount] for p, kind, amount in self.actions],
        }
        if self.run_twice:
            out["run_twice"] = [[at, p, yes] for at, p, yes in self.run_twice]
        if self.shown:
            out["shown"] = [[p, format_cards(cards)] for p, cards in self.shown]
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HandRecord:
        """Inverse of `to_json`.

        Raises:
            InvalidSetupError: the data is not a hand record of a known version.
        """
        try:
            if data.get("version") != 1:
                raise InvalidSetupError("invalid_settings", detail=f"unknown record version {data.get('version')!r}")
            actions = tuple(
                (int(p), ActionKind(kind), None if amount is None else int(amount))
                for p, kind, amount in data["actions"]
            )
            run_twice = tuple((int(at), int(p), bool(yes)) for at, p, yes in data.get("run_twice", ()))
            shown = tuple((int(p), parse_cards(cards)) for p, cards in data.get("shown", ()))
            return cls(
                HandSettings.from_json(data["settings"]),
                tuple(int(s) for s in data["starting_stacks"]),
                parse_cards(data["deck"]),
                actions,
                run_twice,
                shown,
            )
        except (KeyError, TypeError, ValueError, CardParseError) as exc:
            if isinstance(exc, PokerError):
                raise
            raise InvalidSetupError("invalid_settings", detail=f"bad hand record: {exc}") from exc


class Hand:
    """The state machine of one hand (see the module docstring for the rules and conventions).

    Args:
        settings: blinds, antes, straddle, minimum bet.
        stacks: chips of each player before the forced bets, in hand order (0 = first left of
            the button, n-1 = the button); 2 to 10 players, each with at least 1 chip.
        deck: the deck order to deal from (at least 2n + 8 distinct cards: hole cards, three burns,
            five board cards); default: a freshly shuffled deck.
        rng: the generator for that shuffle (default `secrets.SystemRandom`).
        explicit_dealing: deal nothing automatically; hole cards, board cards and showdown
            decisions are given with `deal_hole`, `deal_board`, `show_hand` and `muck_hand`
            (hand-history replay). Such a hand has no deck and no `record()`.

    Raises:
        InvalidSetupError: bad player count, stacks or deck.

    The forced bets are posted and (with a deck) the hole cards dealt at construction; `events`
    holds them.
    """

    __slots__ = (
        "_acted_at",
        "_actions",
        "_actor",
        "_awaiting_street",
        "_bet_count",
        "_bets",
        "_betting",
        "_board",
        "_board2",
        "_contrib",
        "_current_bet",
        "_dead",
        "_dealing_second",
        "_dealt",
        "_decisions",
        "_deck",
        "_deck_pos",
        "_events",
        "_explicit",
        "_final_pots",
        "_folded",
        "_hole",
        "_hole_known",
        "_last_aggressor",
        "_legal_memo",
        "_min_bet",
        "_n",
        "_pots_memo",
        "_preflop_last_blind",
        "_raise_inc",
        "_rit_answers",
        "_rit_pending",
        "_run_from",
        "_runout",
        "_runs",
        "_settings",
        "_shown_by_choice",
        "_stacks",
        "_starting",
        "_street",
    )

    def __init__(
        self,
        settings: HandSettings,
        stacks: Sequence[int],
        *,
        deck: Sequence[Card] | None = None,
        rng: random.Random | None = None,
        explicit_dealing: bool = False,
    ) -> None:
        n = len(stacks)
        forced = settings.forced_bets(n)  # validates n
        for s in stacks:
            if not isinstance(s, int) or isinstance(s, bool) or s < 1:
                raise InvalidSetupError("invalid_stack")
        self._settings = settings
        self._n = n
        self._starting = tuple(stacks)
        self._stacks = list(stacks)
        self._bets = [0] * n
        self._contrib = [0] * n
        self._dead = [0] * n
        self._folded = [False] * n
        self._acted_at = [-1] * n
        self._hole: list[tuple[Card, ...]] = [()] * n
        self._hole_known = [False] * n
        self._dealt = [False] * n
        self._board: list[Card] = []
        self._events: list[Event] = []
        self._actions: list[Action] = []
        self._decisions: dict[int, bool] = {}
        self._final_pots: tuple[Pot, ...] | None = None
        self._pots_memo: tuple[int, tuple[Pot, ...]] | None = None
        self._legal_memo: tuple[int, int, LegalActions] | None = None
        self._street = Street.PREFLOP
        self._actor: int | None = None
        self._awaiting_street: Street | None = None
        self._runout = False
        self._rit_pending: list[int] = []
        self._rit_answers: list[tuple[int, int, bool]] = []
        self._runs = 1
        self._run_from = Street.PREFLOP
        self._board2: list[Card] = []
        self._dealing_second = False
        self._shown_by_choice: list[tuple[int, tuple[Card, ...]]] = []
        self._last_aggressor: int | None = None
        self._min_bet = forced.min_bet
        self._betting = settings.betting
        self._explicit = explicit_dealing
        self._deck_pos = 0
        if explicit_dealing:
            if deck is not None:
                raise InvalidSetupError("invalid_deck", detail="explicit dealing takes no deck")
            self._deck: tuple[Card, ...] = ()
        elif deck is None:
            self._deck = tuple(shuffled_deck(rng))
        else:
            if not all(isinstance(c, Card) for c in deck):
                raise InvalidSetupError("invalid_deck", detail="cards must be Card values")
            # The interned cards, so that identity and value agree everywhere.
            cards = tuple(CARDS[c.index] for c in deck)
            if len(cards) < 2 * n + 8:
                raise InvalidSetupError("invalid_deck", detail=f"{len(cards)} cards, {2 * n + 8} needed")
            if len(set(cards)) != len(cards):
                raise InvalidSetupError("invalid_deck", detail="a card appears twice")
            self._deck = cards

        events = self._events
        stacks_ = self._stacks
        # Antes first (PokerKit and PHH order), then the blinds and straddle.
        for i in range(n):
            ante = forced.antes[i]
            if ante:
                posted = min(ante, stacks_[i])
                stacks_[i] -= posted
                self._contrib[i] += posted
                if forced.dead[i]:
                    self._dead[i] += posted
                events.append(BlindPosted(i, forced.ante_kinds[i], posted))
        if any(forced.antes):
            self._trim_live_antes()
        current = 0
        last_blind = n - 1
        for player, amount, kind in forced.blinds:
            posted = min(amount, stacks_[player])
            if posted:  # a player all-in from the ante posts nothing more
                stacks_[player] -= posted
                self._bets[player] += posted
                self._contrib[player] += posted
                events.append(BlindPosted(player, kind, posted))
            elif kind == "straddle":
                continue  # a straddle is voluntary: with no chips left there is none
            if amount >= current:
                current = amount
                last_blind = player
        # Missed blinds (002): a live big blind out of position, and the dead small blind owed with it.
        for player, dead_chips in forced.extra_blinds:
            posted = min(forced.big_blind, stacks_[player])
            if posted:
                stacks_[player] -= posted
                self._bets[player] += posted
                self._contrib[player] += posted
                events.append(BlindPosted(player, "big_blind", posted))
            dead_posted = min(dead_chips, stacks_[player])
            if dead_posted:
                stacks_[player] -= dead_posted
                self._contrib[player] += dead_posted
                self._dead[player] += dead_posted
                events.append(BlindPosted(player, "dead_small_blind", dead_posted))
        # Callers owe the nominal blind even if its poster was short (TDA; deliberate, unlike PokerKit).
        self._current_bet = current
        self._raise_inc = max(self._min_bet, current)
        # Fixed-limit: the big blind is the street's bet (a straddle a raise); raises are one small bet.
        self._bet_count = sum(1 for _player, _amount, kind in forced.blinds if kind != "small_blind")
        if self._betting is Betting.FIXED_LIMIT:
            self._raise_inc = settings.small_bet
        self._preflop_last_blind = last_blind

        if not explicit_dealing:
            deck_ = self._deck
            for i in range(n):
                self._hole[i] = (deck_[i], deck_[n + i])
                self._hole_known[i] = True
                self._dealt[i] = True
            self._deck_pos = 2 * n
            for i in range(n):
                events.append(HoleCardsDealt(i, self._hole[i]))
            self._begin_preflop()

    # ------------------------------------------------------------------ read-only state

    @property
    def settings(self) -> HandSettings:
        """The hand's settings."""
        return self._settings

    @property
    def player_count(self) -> int:
        """Number of players dealt in (2..10)."""
        return self._n

    @property
    def starting_stacks(self) -> tuple[int, ...]:
        """Each player's chips before the forced bets."""
        return self._starting

    @property
    def stacks(self) -> tuple[int, ...]:
        """Each player's chips behind (not yet bet)."""
        return tuple(self._stacks)

    @property
    def bets(self) -> tuple[int, ...]:
        """Each player's bet on the current street (chips in front of them, not yet in a pot)."""
        return tuple(self._bets)

    @property
    def contributions(self) -> tuple[int, ...]:
        """Chips each player has put in this hand (antes, blinds, bets; minus uncalled returns)."""
        return tuple(self._contrib)

    @property
    def folded(self) -> tuple[bool, ...]:
        """Per player: has folded."""
        return tuple(self._folded)

    @property
    def all_in(self) -> tuple[bool, ...]:
        """Per player: still in the hand with no chips behind."""
        return tuple([not f and s == 0 for f, s in zip(self._folded, self._stacks, strict=True)])

    @property
    def hole_cards(self) -> tuple[tuple[Card, ...], ...]:
        """Each player's two hole cards; () when not dealt yet or unknown (replayed `????`)."""
        return tuple(self._hole)

    @property
    def board(self) -> tuple[Card, ...]:
        """The community cards dealt so far (0, 3, 4 or 5)."""
        return tuple(self._board)

    @property
    def street(self) -> Street:
        """The current street; COMPLETE once the pots are awarded."""
        return self._street

    @property
    def actor(self) -> int | None:
        """The player to act, or None (hand complete, or waiting for a dealing step in explicit mode)."""
        return self._actor

    @property
    def is_complete(self) -> bool:
        """True once every pot is awarded (a `HandEnded` event is the last event)."""
        return self._street is Street.COMPLETE

    @property
    def current_bet(self) -> int:
        """The total bet to match on this street (preflop at least the nominal big blind)."""
        return self._current_bet

    @property
    def min_raise_increment(self) -> int:
        """The last full raise increment of the street: a raise must add at least this much."""
        return self._raise_inc

    @property
    def total_pot(self) -> int:
        """All chips in the middle: collected pots plus the bets of this street."""
        return sum(self._contrib)

    @property
    def finishing_stacks(self) -> tuple[int, ...] | None:
        """Each player's stack after the hand, or None while it is not complete."""
        return tuple(self._stacks) if self._street is Street.COMPLETE else None

    @property
    def deck(self) -> tuple[Card, ...]:
        """The deck order used (empty with explicit dealing)."""
        return self._deck

    @property
    def explicit_dealing(self) -> bool:
        """True when cards are given step by step (hand-history replay)."""
        return self._explicit

    @property
    def events(self) -> list[Event]:
        """Every event so far, in order (a new list each time)."""
        return list(self._events)

    def events_since(self, start: int) -> list[Event]:
        """The events from index `start` on (e.g. `hand.events_since(n_before_action)`)."""
        return self._events[start:]

    @property
    def event_count(self) -> int:
        """Number of events so far (to pass to `events_since` later)."""
        return len(self._events)

    @property
    def awaiting(self) -> str | None:
        """What the hand waits for: 'action', 'run_it_twice' (answers to `answer_run_twice`), or with explicit
        dealing 'hole_cards', 'board' or 'showdown'; None when complete."""
        if self._street is Street.COMPLETE:
            return None
        if self._actor is not None:
            return "action"
        if self._rit_pending:
            return "run_it_twice"
        if self._explicit:
            if not all(self._dealt):
                return "hole_cards"
            if self._awaiting_street is not None:
                return "board"
            return "showdown"
        return None  # pragma: no cover - a dealt hand always has an actor until it is complete

    def pots(self) -> tuple[Pot, ...]:
        """The pots of chips already collected from finished betting rounds (main pot first).

        Bets of the current street are in `bets`, not here. Once the hand is complete, the pots as
        they were awarded.
        """
        if self._final_pots is not None:
            return self._final_pots
        count = len(self._events)
        memo = self._pots_memo
        if memo is not None and memo[0] == count:
            return memo[1]  # asked several times per action: every change of the hand appends an event
        live = [c - b - d for c, b, d in zip(self._contrib, self._bets, self._dead, strict=True)]
        pots = tuple(build_pots(live, self._folded, sum(self._dead)))
        self._pots_memo = (count, pots)
        return pots

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self) -> LegalActions:
        """What the player to act may do (see `LegalActions`).

        Raises:
            HandOverError: the hand is complete.
            IllegalActionError: nobody is to act (explicit dealing waits for cards).
        """
        i = self._actor
        if i is None:
            if self._street is Street.COMPLETE:
                raise HandOverError("hand_over")
            raise IllegalActionError("no_player_to_act")
        count = len(self._events)
        memo = self._legal_memo
        if memo is not None and memo[0] == count and memo[1] == i:
            return memo[2]  # asked several times per turn (the picture, the turn checks): a change appends an event
        legal = self._legal_actions(i)
        self._legal_memo = (count, i, legal)
        return legal

    def _legal_actions(self, i: int) -> LegalActions:
        """`legal_actions` worked out for player `i`, the player to act."""
        bet = self._bets[i]
        stack = self._stacks[i]
        current = self._current_bet
        to_call = current - bet
        all_in_to = bet + stack
        open_ = stack > to_call and self._raise_open(i)
        min_to: int | None = None
        max_to: int | None = None
        if open_:
            min_to, max_to = self._raise_bounds(i)
        facing = to_call > 0
        return LegalActions(
            i,
            facing,
            not facing,
            facing,
            (to_call if to_call < stack else stack) if facing else 0,
            open_ and current == 0,
            open_ and current > 0,
            min_to,
            max_to,
            stack <= to_call or (open_ and max_to == all_in_to),
            all_in_to,
        )

    def _raise_bounds(self, i: int) -> tuple[int, int]:
        """The lowest and highest total player i may bet or raise to, by the betting structure (betting open)."""
        current = self._current_bet
        bet = self._bets[i]
        all_in_to = bet + self._stacks[i]
        low = current + self._raise_inc
        min_to = low if low < all_in_to else all_in_to
        betting = self._betting
        if betting is Betting.NO_LIMIT:
            return min_to, all_in_to
        if betting is Betting.FIXED_LIMIT:
            return min_to, min_to
        # Pot-limit (002): call first, then raise by the whole pot, that call included.
        pot_to = current + sum(self._contrib) + (current - bet)
        return min_to, max(min_to, min(pot_to, all_in_to))

    def _capped(self) -> bool:
        """Fixed-limit: the street already has one bet and three raises."""
        return self._betting is Betting.FIXED_LIMIT and self._bet_count >= FIXED_LIMIT_BETS_PER_STREET

    def _raise_open(self, i: int) -> bool:
        """May player i bet or raise now, leaving chip counts aside (TDA 47 reopening; the fixed-limit cap;
        someone to answer)."""
        if self._capped():
            return False
        acted = self._acted_at[i]
        current = self._current_bet
        if acted >= 0 and current - acted < self._raise_inc:
            return False
        folded = self._folded
        stacks = self._stacks
        bets = self._bets
        for j in range(self._n):
            if j != i and not folded[j] and stacks[j] > 0 and bets[j] + stacks[j] > current:
                return True
        return False

    def _check(self, kind: ActionKind, amount: int | None, player: int | None) -> tuple[int, int] | PokerError:
        """Validate a decision without changing anything: (actor, new street bet total) or the error to raise."""
        i = self._actor
        if i is None:
            if self._street is Street.COMPLETE:
                return HandOverError("hand_over")
            return IllegalActionError("no_player_to_act")
        if player is not None and player != i:
            return NotYourTurnError("not_your_turn", actor=i, player=player)
        bet = self._bets[i]
        stack = self._stacks[i]
        current = self._current_bet
        to_call = current - bet
        if kind is _FOLD:
            return (i, bet) if to_call > 0 else IllegalActionError("cannot_fold")
        if kind is _CHECK:
            return (i, bet) if to_call <= 0 else IllegalActionError("cannot_check", to_call=min(to_call, stack))
        if kind is _CALL:
            return (i, min(current, bet + stack)) if to_call > 0 else IllegalActionError("nothing_to_call")
        all_in_to = bet + stack
        if kind is _ALL_IN:
            if stack <= to_call:
                return (i, all_in_to)
            amount = all_in_to
        elif kind is _BET or kind is _RAISE:
            if amount is None:
                return InvalidAmountError("amount_required", action=kind.value)
            if not isinstance(amount, int) or isinstance(amount, bool):
                return InvalidAmountError("invalid_amount")
            # The blinds are a bet: preflop (even for the big blind's option) it is always a raise.
            if kind is _BET and current > 0:
                return IllegalActionError("bet_facing_bet", current_bet=current)
            if kind is _RAISE and current == 0:
                return IllegalActionError("no_bet_to_raise")
        else:
            return IllegalActionError("unknown_action", action=str(kind))
        assert amount is not None
        if stack <= to_call:
            return IllegalActionError("stack_covers_only_call", to_call=stack)
        if not self._raise_open(i):
            if self._capped():
                return IllegalActionError("raise_capped", to_call=to_call)
            acted = self._acted_at[i]
            if acted >= 0 and current - acted < self._raise_inc:
                return IllegalActionError("raise_not_reopened", to_call=to_call)
            return IllegalActionError("no_one_to_raise", to_call=to_call)
        min_to, max_to = self._raise_bounds(i)
        opening = current == 0
        if amount > max_to:
            if max_to == all_in_to:
                return InvalidAmountError("amount_above_stack", amount=all_in_to)
            if self._betting is Betting.FIXED_LIMIT:
                return InvalidAmountError("fixed_limit_bet" if opening else "fixed_limit_raise", amount=max_to)
            return InvalidAmountError("pot_limit_bet" if opening else "pot_limit_raise", amount=max_to)
        if amount < min_to:  # min_to is at most the all-in: an all-in for less is never below it
            if self._betting is Betting.FIXED_LIMIT:
                return InvalidAmountError("fixed_limit_bet" if opening else "fixed_limit_raise", amount=min_to)
            return InvalidAmountError("min_bet" if opening else "min_raise", amount=min_to)
        return (i, amount)

    # ------------------------------------------------------------------ the three-part actions

    def act(self, kind: ActionKind, amount: int | None = None, *, player: int | None = None) -> PlayerActed:
        """Apply a decision of the player to act.

        Args:
            kind: FOLD, CHECK, CALL, BET, RAISE or ALL_IN.
            amount: for BET and RAISE, the player's total bet on this street after the action
                ("raise to"); ignored otherwise.
            player: if given, the acting player's index; refused when it is not their turn.

        Returns:
            The `PlayerActed` event. Following events (next street, run-out, showdown, pots) are
            appended to `events` by the same call.

        Raises:
            PokerError subclasses (nothing changes): NotYourTurnError, HandOverError,
            IllegalActionError ("cannot_check", "raise_not_reopened", ...), InvalidAmountError
            ("min_raise", "min_bet", "amount_above_stack", ...).
        """
        if kind.__class__ is not ActionKind:
            kind = ActionKind(kind)
        return self._do(kind, amount, player)

    def _do(self, kind: ActionKind, amount: int | None, player: int | None) -> PlayerActed:
        result = self._check(kind, amount, player)
        if isinstance(result, PokerError):
            raise result
        return self._apply(kind, result[0], result[1])

    def verify_action(self, kind: ActionKind, amount: int | None = None, *, player: int | None = None) -> None:
        """Raise the `PokerError` that `act(kind, amount)` would raise; do nothing if it is allowed."""
        result = self._check(ActionKind(kind), amount, player)
        if isinstance(result, PokerError):
            raise result

    def can_act(self, kind: ActionKind, amount: int | None = None, *, player: int | None = None) -> bool:
        """Whether `act(kind, amount)` would be accepted."""
        return not isinstance(self._check(ActionKind(kind), amount, player), PokerError)

    def verify_fold(self, *, player: int | None = None) -> None:
        """Raise unless the player to act may fold (they must face a bet). Rule book 000 §05."""
        self.verify_action(_FOLD, player=player)

    def can_fold(self, *, player: int | None = None) -> bool:
        """Whether `fold()` would be accepted."""
        return self.can_act(_FOLD, player=player)

    def fold(self, *, player: int | None = None) -> PlayerActed:
        """Fold: give up the hand; chips already bet stay in the pot. Raises like `act`."""
        return self._do(_FOLD, None, player)

    def verify_check(self, *, player: int | None = None) -> None:
        """Raise unless the player to act may check (nothing to call): "You can't check: 6 to call"."""
        self.verify_action(_CHECK, player=player)

    def can_check(self, *, player: int | None = None) -> bool:
        """Whether `check()` would be accepted."""
        return self.can_act(_CHECK, player=player)

    def check(self, *, player: int | None = None) -> PlayerActed:
        """Check (including the big blind's option preflop). Raises like `act`."""
        return self._do(_CHECK, None, player)

    def verify_call(self, *, player: int | None = None) -> None:
        """Raise unless there is a bet to call."""
        self.verify_action(_CALL, player=player)

    def can_call(self, *, player: int | None = None) -> bool:
        """Whether `call()` would be accepted."""
        return self.can_act(_CALL, player=player)

    def call(self, *, player: int | None = None) -> PlayerActed:
        """Call: match the current bet, or put in the whole stack if it is shorter. Raises like `act`."""
        return self._do(_CALL, None, player)

    def verify_bet(self, amount: int, *, player: int | None = None) -> None:
        """Raise unless `bet(amount)` is allowed: no bet yet this street, amount >= the minimum bet
        (the big blind) or all-in, at most the stack."""
        self.verify_action(_BET, amount, player=player)

    def can_bet(self, amount: int, *, player: int | None = None) -> bool:
        """Whether `bet(amount)` would be accepted."""
        return self.can_act(_BET, amount, player=player)

    def bet(self, amount: int, *, player: int | None = None) -> PlayerActed:
        """Open the betting of a street with a bet of `amount` chips (total this street). Raises like `act`."""
        return self._do(_BET, amount, player)

    def verify_raise_to(self, amount: int, *, player: int | None = None) -> None:
        """Raise unless `raise_to(amount)` is allowed: there is a bet, betting is open to the player,
        amount >= current bet + last full raise increment (or all-in), at most the stack."""
        self.verify_action(_RAISE, amount, player=player)

    def can_raise_to(self, amount: int, *, player: int | None = None) -> bool:
        """Whether `raise_to(amount)` would be accepted."""
        return self.can_act(_RAISE, amount, player=player)

    def raise_to(self, amount: int, *, player: int | None = None) -> PlayerActed:
        """Raise to a total of `amount` chips on this street. Raises like `act`."""
        return self._do(_RAISE, amount, player)

    def verify_all_in(self, *, player: int | None = None) -> None:
        """Raise unless the player may put in all their chips (a call, or a bet/raise when allowed): see `go_all_in`."""
        self.verify_action(_ALL_IN, player=player)

    def can_all_in(self, *, player: int | None = None) -> bool:
        """Whether `all_in()` would be accepted."""
        return self.can_act(_ALL_IN, player=player)

    def go_all_in(self, *, player: int | None = None) -> PlayerActed:
        """Put in every chip: a call when the stack doesn't cover more, else a bet or raise. Raises like `act`.

        (Named `go_all_in` because `all_in` is the per-player state tuple.)
        """
        return self._do(_ALL_IN, None, player)

    def verify_forfeit(self, player: int) -> None:
        """Raise unless `player`'s hand can be forfeited now: the hand is being played and the player is still
        in it (folded players, finished hands: IllegalActionError / HandOverError)."""
        if self._street is Street.COMPLETE or self._street is Street.SHOWDOWN:
            raise HandOverError("hand_over")
        if not 0 <= player < self._n or self._folded[player]:
            raise IllegalActionError("no_player_to_act")

    def can_forfeit(self, player: int) -> bool:
        """Whether `forfeit(player)` would be accepted."""
        try:
            self.verify_forfeit(player)
        except PokerError:
            return False
        return True

    def forfeit(self, player: int) -> PlayerActed:
        """Give up `player`'s hand at once, whoever is to act and even when checking is free: the player left
        the table, so the hand is dead (rule book 002: a hand that touches the muck is dead; 000 §05: the
        chips already bet stay in the pot, and its player can no longer win it). Recorded as a fold.

        When it is the player's turn this is a fold (the action moves on as after any fold). Otherwise the
        turn stays with the player to act unless the forfeit ended their obligation to act (then the
        betting round closes); with one player left in the hand, they win it uncontested. An all-in player's
        chips stay in the pots they reached, which the others can win. Returns the `PlayerActed` fold event.
        Raises like `verify_forfeit`; nothing changes then."""
        self.verify_forfeit(player)
        if player == self._actor:
            return self._apply(_FOLD, player, self._bets[player])
        self._actions.append((player, _FOLD, None))
        self._folded[player] = True
        event = PlayerActed(player, _FOLD, self._bets[player], 0, False)
        self._events.append(event)
        remaining = [j for j in range(self._n) if not self._folded[j]]
        actor = self._actor
        if self._rit_pending:
            # A player who leaves while the table is asked to run it twice does not agree: one run (or nobody
            # left to contest the pots).
            self._rit_pending = []
            if len(remaining) > 1:
                self._events.append(RunCountChosen(1))
                self._advance()
                return event
        if len(remaining) == 1:
            self._actor = None
            self._end_uncontested(remaining[0])
        elif actor is not None:
            # The player to act may have had to act only because the forfeited player could answer them.
            self._actor = None
            following = self._next_actor((actor - 1) % self._n)
            if following is None:
                self._close_round()
            else:
                self._actor = following
        return event

    def replay(self, player: int, kind: ActionKind, amount: int | None = None) -> PlayerActed:
        """Apply a recorded decision of `player` (a hand's record, a stored action): `act`, except that a
        recorded fold which `act` would refuse (out of turn, or with a free check) is a `forfeit` — the only
        way such a fold gets recorded. Raises like `act`."""
        kind = ActionKind(kind)
        if kind is _FOLD and (player != self._actor or not self.can_fold(player=player)):
            return self.forfeit(player)
        return self.act(kind, amount, player=player)

    # ------------------------------------------------------------------ applying a decision

    def _apply(self, kind: ActionKind, i: int, total: int) -> PlayerActed:
        bets = self._bets
        self._actions.append((i, kind, total if kind is _BET or kind is _RAISE else None))
        if kind is _FOLD:
            self._folded[i] = True
            event = PlayerActed(i, kind, bets[i], 0, False)
            self._events.append(event)
            remaining = [j for j in range(self._n) if not self._folded[j]]
            if len(remaining) == 1:
                self._actor = None
                self._end_uncontested(remaining[0])
                return event
        else:
            added = total - bets[i]
            self._stacks[i] -= added
            bets[i] = total
            self._contrib[i] += added
            current = self._current_bet
            if total > current:
                increment = total - current
                if increment >= self._raise_inc:
                    self._raise_inc = increment
                self._current_bet = total
                self._bet_count += 1
                self._last_aggressor = i
            event = PlayerActed(i, kind, total, added, self._stacks[i] == 0)
            self._events.append(event)
        self._acted_at[i] = self._current_bet
        following = self._next_actor(i)
        if following is None:
            self._actor = None
            self._close_round()
        else:
            self._actor = following
        return event

    def _next_actor(self, after: int) -> int | None:
        """The next player clockwise after `after` who must act, or None when the betting round is over.

        A player must act when they can (in the hand, chips behind) and either haven't matched the
        bet, or haven't acted yet this round while someone else can still act too.
        """
        folded = self._folded
        stacks = self._stacks
        bets = self._bets
        acted_at = self._acted_at
        current = self._current_bet
        pending = -1
        can_act = 0
        for j in _ROTATIONS[self._n][after]:
            if folded[j] or stacks[j] == 0:
                continue
            can_act += 1
            if pending >= 0:  # a second player who can act: the pending one must act
                return pending
            if bets[j] < current:
                return j
            if acted_at[j] < 0:
                if can_act >= 2:
                    return j
                pending = j
        return None

    def _begin_preflop(self) -> None:
        first = self._next_actor(self._preflop_last_blind)
        if first is None:
            self._close_round()
        else:
            self._actor = first

    def _begin_round(self) -> bool:
        """Start the betting of a new street; False when nobody can bet (run-out)."""
        n = self._n
        self._current_bet = 0
        self._raise_inc = self._min_bet
        self._bet_count = 0
        if self._betting is Betting.FIXED_LIMIT and self._street >= Street.TURN:
            self._raise_inc = self._settings.big_bet
        self._acted_at = [-1] * n
        first = self._next_actor(n - 1)
        if first is None:
            return False
        self._last_aggressor = None
        self._actor = first
        return True

    def _return_uncalled(self) -> None:
        """Give back the part of the street's top bet that nobody matched (rule book 000 §05). When its author
        has folded (a player who left forfeits their hand) it is dead money, never given back ("ne reprends
        pas les jetons d'une mise après t'être couché", 000), as long as a player still in the hand could have
        matched it (one with chips behind). If every player still in is all-in for less, nobody can win the
        folded bets above the biggest of theirs ("tu ne peux gagner de chaque adversaire que le montant que tu
        as pu égaler"): that part of each goes back to its author."""
        bets = self._bets
        top = max(bets)
        if top == 0:
            return
        holder = bets.index(top)
        if self._folded[holder]:
            live = [j for j in range(self._n) if not self._folded[j]]
            if any(self._stacks[j] > 0 for j in live):
                return
            cap = max((bets[j] for j in live), default=0)
            for j in range(self._n):
                if self._folded[j] and bets[j] > cap:
                    self._give_back(j, bets[j] - cap)
            return
        second = 0
        for j, b in enumerate(bets):
            if j != holder and b > second:
                second = b
        if second == top:
            return
        self._give_back(holder, top - second)

    def _give_back(self, player: int, excess: int) -> None:
        """Return `excess` chips of `player`'s bet this street to their stack (an uncalled bet)."""
        self._bets[player] -= excess
        self._stacks[player] += excess
        self._contrib[player] -= excess
        self._events.append(UncalledBetReturned(player, excess))

    def _close_round(self) -> None:
        """The betting round is over: return the uncalled bet, then deal on or go to the showdown."""
        self._return_uncalled()
        self._bets = [0] * self._n
        can_act = sum(1 for j in range(self._n) if not self._folded[j] and self._stacks[j] > 0)
        if can_act <= 1:
            self._runout = True
            if self._offer_run_twice():
                return
        self._advance()

    def _advance(self) -> None:
        """Deal the next streets (stopping for a betting round) until the showdown."""
        while True:
            if self._street >= Street.RIVER:
                if self._explicit and self._runs == 2 and len(self._board2) < 5:
                    self._await_second_run()
                    return
                self._start_showdown()
                return
            nxt = Street(self._street + 1)
            if self._explicit:
                self._awaiting_street = nxt
                return
            burn = self._deck_pos
            count = 3 if nxt is Street.FLOP else 1
            cards = self._deck[burn + 1 : burn + 1 + count]
            self._deck_pos = burn + 1 + count
            self._deal_street(nxt, cards)
            if not self._runout and self._begin_round():
                return

    def _deal_street(self, street: Street, cards: Sequence[Card]) -> None:
        self._street = street
        # The showdown starts with the last aggressor of the river's betting: a street dealt without betting (a
        # run-out) has none, so an earlier street's bettor never shows first (rule book 002).
        self._last_aggressor = None
        self._board.extend(cards)
        self._events.append(StreetDealt(street, tuple(cards), tuple(self._board)))

    # ------------------------------------------------------------------ showdown and pots

    def _contenders(self) -> list[int]:
        return [i for i in range(self._n) if not self._folded[i]]

    def _showdown_order(self) -> list[int]:
        """Contenders in showing order: the last bettor/raiser of the river's betting round, else (no river bet,
        or no betting on the river at all: an all-in run-out) the first player left of the button, then
        clockwise (rule book 000 §07, 002)."""
        n = self._n
        start = self._last_aggressor if self._last_aggressor is not None else 0
        return [j for j in ((start + k) % n for k in range(n)) if not self._folded[j]]

    def _start_showdown(self) -> None:
        self._street = Street.SHOWDOWN
        self._actor = None
        if self._explicit:
            self._settle_if_decided()
            return
        if self._runs == 2 and len(self._board2) < 5:
            self._deal_second_run()
        board = self._board
        order = self._showdown_order()
        everyone_shows = any(self._stacks[i] == 0 for i in order)
        values: dict[int, HandValue] = {}
        shown: list[Event] = []
        best = 0
        for i in order:
            value = evaluate_distinct((*self._hole[i], *board))
            if everyone_shows or value.strength >= best:
                values[i] = value
                shown.append(HandShown(i, self._hole[i], value))
                if value.strength > best:
                    best = value.strength
            else:
                self._decisions[i] = False
                shown.append(HandMucked(i))
        second: dict[int, HandValue] | None = None
        if self._runs == 2:
            second = {i: evaluate_distinct((*self._hole[i], *self._board2)) for i in values}
        self._award(values, shown, second)

    def _award(
        self,
        values: Mapping[int, HandValue],
        shown: Sequence[Event] = (),
        second: Mapping[int, HandValue] | None = None,
    ) -> None:
        """Pay every pot among its eligible players still claiming it, side pots first (rule book 002).

        `shown` (the showdown's HandShown/HandMucked events) is recorded with the payouts. Every pot
        is worked out before anything changes, so a DealingError leaves the hand as it was. With `second`
        (the values on the second board of a hand run twice), each pot is paid in two halves (`_halves`).
        """
        live = [c - d for c, d in zip(self._contrib, self._dead, strict=True)]
        pots = build_pots(live, self._folded, sum(self._dead))
        mucked = {i for i, shows in self._decisions.items() if not shows}
        payouts: list[PotAwarded] = []
        for index in range(len(pots) - 1, -1, -1):
            pot = pots[index]
            claimants = [i for i in pot.eligible if i not in mucked]
            if not claimants:
                if len(pot.eligible) == 1:
                    claimants = list(pot.eligible)
                else:
                    raise DealingError("dealing", detail=f"every player eligible for pot {index} mucked")
            winners, value, beaten = _pot_winners(pot.eligible, claimants, values)
            if second is None:
                payouts.append(PotAwarded(index, pot.amount, tuple(split_pot(pot.amount, winners)), value, beaten))
                continue
            winners2, value2, beaten2 = _pot_winners(pot.eligible, claimants, second)
            first_half, second_half = _halves(pot.amount, winners, winners2)
            payouts.append(PotAwarded(index, first_half, tuple(split_pot(first_half, winners)), value, beaten, 1))
            payouts.append(PotAwarded(index, second_half, tuple(split_pot(second_half, winners2)), value2, beaten2, 2))
        for payout in payouts:
            for player, chips in payout.winners:
                self._stacks[player] += chips
        self._events.extend(shown)
        self._events.extend(payouts)
        self._final_pots = tuple(pots)
        self._finish()

    # ------------------------------------------------------------------ run it twice

    def _cards_to_come(self) -> list[tuple[Street, int]]:
        """The streets still to deal after the current one, with their card counts."""
        return [(Street(s), 3 if s == Street.FLOP else 1) for s in range(self._street + 1, Street.RIVER + 1)]

    def _offer_run_twice(self) -> bool:
        """At the close of betting with a player all-in and cards to come, ask the players still in whether to
        run it twice (when the table offers it and the deck holds both run-outs). True when the question is
        now open (the hand waits for `answer_run_twice`)."""
        if not self._settings.run_it_twice or self._explicit or self._street >= Street.RIVER:
            return False
        contenders = self._contenders()
        if len(contenders) < 2:
            return False
        needed = sum(1 + count for _street, count in self._cards_to_come())
        if self._deck_pos + 2 * needed > len(self._deck):
            return False
        self._rit_pending = contenders
        self._actor = None
        return True

    @property
    def run_twice_pending(self) -> tuple[int, ...]:
        """The players who still have to answer whether to run it twice, in hand order; () when no such
        question is open."""
        return tuple(self._rit_pending)

    @property
    def runs(self) -> int:
        """How many times the rest of the board is (or was) dealt: 2 once everyone agreed to run it twice."""
        return self._runs

    @property
    def second_board(self) -> tuple[Card, ...]:
        """The second board of a hand run twice (the shared cards, then the second run-out); () otherwise."""
        return tuple(self._board2)

    def verify_answer_run_twice(self, player: int, yes: bool) -> None:
        """Raise unless `player` may answer the run-it-twice question now.

        Raises:
            HandOverError: the hand is complete.
            IllegalActionError ("no_run_twice_question"): no question is open, or this player has answered or is
                not in the hand.
        """
        if self._street is Street.COMPLETE:
            raise HandOverError("hand_over")
        if player not in self._rit_pending:
            raise IllegalActionError("no_run_twice_question")

    def can_answer_run_twice(self, player: int, yes: bool) -> bool:
        """Whether `answer_run_twice(player, yes)` would be accepted."""
        try:
            self.verify_answer_run_twice(player, yes)
        except PokerError:
            return False
        return True

    def answer_run_twice(self, player: int, yes: bool) -> RunTwiceAnswered:
        """`player` answers whether to deal the rest of the board twice. The first no settles it (one run,
        dealt at once); when the last player agrees, the rest of the board is dealt twice and each pot is
        paid in two halves, one per board (rule book 002). Returns the `RunTwiceAnswered` event; the run-out
        and the showdown follow in `events`. Raises like `verify_answer_run_twice`."""
        self.verify_answer_run_twice(player, yes)
        self._rit_answers.append((len(self._actions), player, yes))
        event = RunTwiceAnswered(player, yes)
        self._events.append(event)
        if yes:
            self._rit_pending.remove(player)
            if self._rit_pending:
                return event
            self._runs = 2
            self._run_from = self._street
        else:
            self._rit_pending = []
        self._events.append(RunCountChosen(self._runs))
        self._advance()
        return event

    def run_twice_agreed(self) -> None:
        """Explicit dealing (hand-history replay): every player still in agreed to run it twice; the next
        board cards complete the first board, then the second board's cards follow (`deal_board`).

        Raises:
            DealingError: not explicit dealing, or the betting is not closed with a player all-in and cards
                to come.
        """
        if not self._explicit or not self._runout or self._actor is not None or self._street >= Street.RIVER:
            raise DealingError("dealing", detail="running it twice needs an all-in with cards to come")
        if self._runs == 2:
            raise DealingError("dealing", detail="the board is already run twice")
        self._runs = 2
        self._run_from = self._street
        self._events.append(RunCountChosen(2))

    def _await_second_run(self) -> None:
        """Explicit dealing: the first board is complete; wait for the second board's next street."""
        if not self._dealing_second:
            shared = {Street.PREFLOP: 0, Street.FLOP: 3, Street.TURN: 4}[self._run_from]
            self._board2 = list(self._board[:shared])
            self._dealing_second = True
        self._awaiting_street = {0: Street.FLOP, 3: Street.TURN, 4: Street.RIVER}[len(self._board2)]

    def _deal_second_run(self) -> None:
        """Deal the second run-out from the deck (a burn card before each street, as the first) onto a copy of
        the cards both boards share."""
        shared = {Street.PREFLOP: 0, Street.FLOP: 3, Street.TURN: 4}[self._run_from]
        board2 = list(self._board[:shared])
        street = self._street
        self._street = self._run_from
        for nxt, count in self._cards_to_come():
            burn = self._deck_pos
            cards = self._deck[burn + 1 : burn + 1 + count]
            self._deck_pos = burn + 1 + count
            board2.extend(cards)
            self._events.append(StreetDealt(nxt, tuple(cards), tuple(board2), 2))
        self._street = street
        self._board2 = board2

    # ------------------------------------------------------------------ showing by choice

    def verify_show_by_choice(self, player: int, cards: Sequence[Card]) -> None:
        """Raise unless `player` may show `cards` now: the hand is complete, the player's hand was not shown
        at the showdown (they folded, won without a showdown or mucked), and `cards` are one or two of their
        hole cards not shown yet (rule book 002: showing and mucking).

        Raises:
            IllegalActionError ("cannot_show"): any of these does not hold.
        """
        if self._street is not Street.COMPLETE or not 0 <= player < self._n:
            raise IllegalActionError("cannot_show")
        if any(isinstance(e, HandShown) and e.player == player for e in self._events):
            raise IllegalActionError("cannot_show")
        already = {c for p, shown in self._shown_by_choice if p == player for c in shown}
        wanted = [CARDS[c.index] for c in cards]
        if not wanted or len(wanted) > 2 or len(set(wanted)) != len(wanted) or len(already) + len(wanted) > 2:
            raise IllegalActionError("cannot_show")
        if not self._hole_known[player]:
            # A replayed history that gives this player's cards as unknown (????): the cards shown must be
            # none of the cards known to be elsewhere.
            if not self._explicit or set(wanted) & (self._known_cards() | already):
                raise IllegalActionError("cannot_show")
            return
        for card in wanted:
            if card not in self._hole[player] or card in already:
                raise IllegalActionError("cannot_show")

    def can_show_by_choice(self, player: int, cards: Sequence[Card]) -> bool:
        """Whether `show_by_choice(player, cards)` would be accepted."""
        try:
            self.verify_show_by_choice(player, cards)
        except PokerError:
            return False
        return True

    def show_by_choice(self, player: int, cards: Sequence[Card]) -> ShownByChoice:
        """After the hand, `player` shows one or both hole cards their hand did not show (see
        `verify_show_by_choice`). Recorded in the hand (`record().shown`). Returns the `ShownByChoice` event."""
        self.verify_show_by_choice(player, cards)
        wanted = [CARDS[x.index] for x in cards]
        ordered = tuple(c for c in self._hole[player] if c in wanted) if self._hole_known[player] else tuple(wanted)
        self._shown_by_choice.append((player, ordered))
        event = ShownByChoice(player, ordered)
        self._events.append(event)
        return event

    def _end_uncontested(self, winner: int) -> None:
        """Everyone else folded: the last player takes every pot without showing (rule book 000 §05)."""
        self._return_uncalled()
        self._bets = [0] * self._n
        live = [c - d for c, d in zip(self._contrib, self._dead, strict=True)]
        pots = build_pots(live, self._folded, sum(self._dead))
        total = sum(p.amount for p in pots)
        self._stacks[winner] += total
        self._final_pots = tuple(pots)
        for index in range(len(pots) - 1, -1, -1):
            self._events.append(PotAwarded(index, pots[index].amount, ((winner, pots[index].amount),), None))
        self._finish()

    def _finish(self) -> None:
        self._street = Street.COMPLETE
        self._actor = None
        self._awaiting_street = None
        self._bets = [0] * self._n
        self._events.append(HandEnded(tuple(self._stacks)))

    def _trim_live_antes(self) -> None:
        """Live antes of different sizes: the part above the second-largest ante is returned (PHH ante trimming)."""
        live = [c - d for c, d in zip(self._contrib, self._dead, strict=True)]
        if not any(live):
            return
        top = max(live)
        holder = live.index(top)
        second = max((v for j, v in enumerate(live) if j != holder), default=0)
        if second < top:
            excess = top - second
            self._stacks[holder] += excess
            self._contrib[holder] -= excess
            self._events.append(UncalledBetReturned(holder, excess))

    # ------------------------------------------------------------------ explicit dealing (replay)

    def _known_cards(self) -> set[Card]:
        known = set(self._board) | set(self._board2)
        for cards in self._hole:
            known.update(cards)
        return known

    def deal_hole(self, player: int, cards: Sequence[Card] | None) -> HoleCardsDealt:
        """Explicit dealing: give `player` their two hole cards (None or () when unknown, PHH `????`).

        Every player must be dealt before the first decision.

        Raises:
            DealingError: not explicit dealing, already dealt, wrong count or a card already out.
        """
        if not self._explicit:
            raise DealingError("dealing", detail="this hand deals from its deck")
        if not 0 <= player < self._n or self._dealt[player]:
            raise DealingError("dealing", detail=f"player {player} can't be dealt hole cards now")
        dealt = tuple(CARDS[c.index] for c in cards) if cards else ()
        if dealt:
            if len(dealt) != 2 or len(set(dealt)) != 2:
                raise DealingError("dealing", detail="two distinct hole cards are needed")
            clash = set(dealt) & self._known_cards()
            if clash:
                raise DealingError("dealing", detail=f"{format_cards(sorted(clash))} already dealt")
            self._hole[player] = dealt
            self._hole_known[player] = True
        event = HoleCardsDealt(player, dealt)
        self._events.append(event)
        self._dealt[player] = True
        if all(self._dealt):
            self._begin_preflop()
        return event

    def deal_board(self, cards: Sequence[Card]) -> StreetDealt:
        """Explicit dealing: deal the next street's board cards (3 for the flop, then 1 and 1).

        Raises:
            DealingError: not waiting for board cards, wrong count, or a card already out.
        """
        street = self._awaiting_street
        if not self._explicit or street is None:
            raise DealingError("dealing", detail="no board cards are due now")
        dealt = tuple(CARDS[c.index] for c in cards)
        expected = 3 if street is Street.FLOP else 1
        if len(dealt) != expected or len(set(dealt)) != expected:
            raise DealingError("dealing", detail=f"{expected} board card(s) expected for the {street.name.lower()}")
        clash = set(dealt) & self._known_cards()
        if clash:
            raise DealingError("dealing", detail=f"{format_cards(sorted(clash))} already dealt")
        self._awaiting_street = None
        if self._dealing_second:
            self._board2.extend(dealt)
            second = StreetDealt(street, dealt, tuple(self._board2), 2)
            self._events.append(second)
            self._advance()
            return second
        self._deal_street(street, dealt)
        event = self._events[-1]
        assert isinstance(event, StreetDealt)
        if not self._runout and self._begin_round():
            return event
        self._advance()
        return event

    def _betting_over(self) -> bool:
        return self._street is Street.SHOWDOWN or (self._runout and self._actor is None)

    def show_hand(self, player: int, cards: Sequence[Card] | None = None) -> None:
        """Explicit dealing: `player` shows at the showdown (cards may reveal unknown hole cards).

        Allowed once betting is over for good (showdown, or an all-in before the run-out). The
        `HandShown` event is emitted when the pots are settled.

        Raises:
            DealingError: betting not over, player not in the hand or already decided, cards that
                differ from those dealt or clash with other cards.
        """
        self._check_decision(player)
        saved = (list(self._hole), list(self._hole_known), dict(self._decisions))
        try:
            self._show(player, cards)
        except PokerError:
            self._hole, self._hole_known, self._decisions = saved[0], saved[1], saved[2]
            raise

    def _show(self, player: int, cards: Sequence[Card] | None) -> None:
        if cards:
            shown = tuple(CARDS[c.index] for c in cards)
            if len(shown) != 2 or len(set(shown)) != 2:
                raise DealingError("dealing", detail="two distinct hole cards are needed")
            if self._hole_known[player]:
                if set(shown) != set(self._hole[player]):
                    shown_text, dealt_text = format_cards(shown), format_cards(self._hole[player])
                    detail = f"the cards shown ({shown_text}) are not those dealt ({dealt_text})"
                    raise DealingError("dealing", detail=detail)
            else:
                clash = set(shown) & self._known_cards()
                if clash:
                    raise DealingError("dealing", detail=f"{format_cards(sorted(clash))} already dealt")
                self._hole[player] = shown
                self._hole_known[player] = True
        self._decisions[player] = True
        self._settle_if_decided()

    def muck_hand(self, player: int) -> None:
        """Explicit dealing: `player` throws their hand away at the showdown and gives up every pot
        another player contests. Raises DealingError like `show_hand`."""
        self._check_decision(player)
        self._decisions[player] = False
        try:
            self._settle_if_decided()
        except PokerError:
            del self._decisions[player]
            raise

    def _check_decision(self, player: int) -> None:
        if not self._explicit:
            raise DealingError("dealing", detail="showdown decisions are automatic when dealing from a deck")
        if self._street is Street.COMPLETE:
            raise HandOverError("hand_over")
        if not self._betting_over():
            raise DealingError("dealing", detail="betting is not over")
        if not 0 <= player < self._n or self._folded[player] or player in self._decisions:
            raise DealingError("dealing", detail=f"player {player} has no showdown decision to make")

    def finish_showdown(self) -> None:
        """Explicit dealing: settle a showdown that waits for decisions by showing every undecided hand.

        Raises:
            DealingError: not at a showdown ("unknown_hole_cards" if a contested pot needs cards that
                are unknown).
        """
        if not self._explicit or self._street is not Street.SHOWDOWN:
            raise DealingError("dealing", detail="there is no showdown waiting")
        contenders = self._contenders()
        undecided = [i for i in contenders if i not in self._decisions]
        if len(undecided) == 1 and not any(self._decisions.get(i, False) for i in contenders):
            # Everyone else mucked: the last player in wins without showing (rule book 000 §03).
            self._settle_if_decided(unshown=undecided[0])
            return
        saved = dict(self._decisions)
        for i in undecided:
            self._decisions[i] = True
        try:
            self._settle_if_decided()
        except PokerError:
            self._decisions = saved
            raise

    def _settle_if_decided(self, unshown: int | None = None) -> None:
        if self._street is not Street.SHOWDOWN:
            return
        contenders = self._contenders()
        if any(i not in self._decisions and i != unshown for i in contenders):
            return
        values: dict[int, HandValue] = {}
        shown: list[Event] = []
        board = self._board
        for i in self._decisions:  # in the order the players decided
            if self._decisions[i]:
                if self._hole_known[i]:
                    value = evaluate((*self._hole[i], *board))
                    values[i] = value
                    shown.append(HandShown(i, self._hole[i], value))
            else:
                shown.append(HandMucked(i))
        second = None
        if self._runs == 2:
            second = {i: evaluate((*self._hole[i], *self._board2)) for i in values}
        self._award(values, shown, second)

    # ------------------------------------------------------------------ record and replay

    def record(self) -> HandRecord:
        """The hand's history so far (settings, stacks, deck, decisions); see `from_record`.

        Raises:
            InvalidSetupError: the hand uses explicit dealing (it has no deck).
        """
        if self._explicit:
            raise InvalidSetupError("invalid_deck", detail="a hand with explicit dealing has no deck to record")
        return HandRecord(
            self._settings,
            self._starting,
            self._deck,
            tuple(self._actions),
            tuple(self._rit_answers),
            tuple(self._shown_by_choice),
        )

    @classmethod
    def from_record(cls, record: HandRecord) -> Hand:
        """Rebuild a hand exactly (same events, same state) by replaying its record.

        Raises:
            InvalidSetupError: bad settings, stacks or deck in the record.
            PokerError: a recorded action is refused (the record is not a real hand's history).
        """
        hand = cls(record.settings, record.starting_stacks, deck=record.deck)
        answers = list(record.run_twice)
        for done, (player, kind, amount) in enumerate(record.actions):
            while answers and answers[0][0] == done:
                hand.answer_run_twice(answers[0][1], answers.pop(0)[2])
            hand.replay(player, kind, amount)
        for _done, player, yes in answers:
            hand.answer_run_twice(player, yes)
        for player, cards in record.shown:
            hand.show_by_choice(player, cards)
        return hand


def _pot_winners(
    eligible: Sequence[int], claimants: Sequence[int], values: Mapping[int, HandValue]
) -> tuple[list[int], HandValue | None, HandValue | None]:
    """Who wins a pot among its claimants: (winners, the winning value or None uncontested, the best value
    beaten or None). Raises DealingError when a contested claimant's hand is unknown."""
    if len(claimants) == 1:
        return list(claimants), (values.get(claimants[0]) if len(eligible) > 1 else None), None
    for i in claimants:
        if i not in values:
            raise DealingError("unknown_hole_cards", player=i)
    top = max(values[i].strength for i in claimants)
    winners = [i for i in claimants if values[i].strength == top]
    beaten = max((values[i] for i in claimants if values[i].strength < top), default=None)
    return winners, values[winners[0]], beaten


def _halves(amount: int, first: Sequence[int], second: Sequence[int]) -> tuple[int, int]:
    """A pot run twice is split in two halves; an odd chip goes, by the rule for odd chips (rule book 000 §07:
    to the first winner left of the button), with the half won by the winner of either board nearest the
    button's left (the first board when that player won both). Each half is then split among its board's
    winners by `split_pot`, odd chips again from the button's left."""
    half, odd = divmod(amount, 2)
    if not odd:
        return half, half
    nearest = min((*first, *second))
    return (half + 1, half) if nearest in first else (half, half + 1)
