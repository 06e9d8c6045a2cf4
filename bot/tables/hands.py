"""A table's hands, from the deal to what follows their end: start the game, deal, the turn and its checks, an
action (write-ahead), a timeout, a tournament player sitting out, the hand's end and its aftermath (rebuys,
eliminations, leavers), then the next deal or the end (docs/architecture.md, "Table orchestration": the
extension points are named there).

`Hands` works on the runner's `TableCore`, inside one of the runner's operations (under its lock); the runner's
clockwork (`Scheduler`) arms the turn timer and schedules the next deal.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.poker import ActionKind, Hand, HandEnded, PlayerActed, PokerError, TableKind, pot_raise_to
from bot.poker.events import RunTwiceAnswered
from bot.poker.seal import DeckSeal
from bot.poker.sizing import HALF_POT
from bot.render.announce import NoticeKind
from bot.storage import is_computer_player
from bot.tables.allin import street_announcements
from bot.tables.core import Scheduler, TableCore
from bot.tables.errors import STORAGE_FAULTS, ServiceError
from bot.tables.host import Host
from bot.tables.kinds import ActionBy, Departure, OutboxKind
from bot.tables.notifier import LevelAnnouncement, PlayerAnnouncement
from bot.tables.outbox import Owed, encode_cards, new_key
from bot.tables.places import places_of_busts
from bot.tables.preactions import PreAction, PreChoice, advance_call, resolve, still_valid
from bot.tables.record import StoredHand
from bot.tables.results import hand_result, outcomes
from bot.tables.seating import Seating
from bot.tables.snapshot import level_view
from bot.tables.timebank_turn import TimeBankTurn

log = logging.getLogger(__name__)

#: Timer expiries in a row after which a player is sat out (issue 4).
EXPIRIES_BEFORE_SIT_OUT = 2
#: Told an action once it is stored and applied, before the rest of its operation (`Hands.apply`'s `stored`).
Stored = Callable[[PlayerActed], None]


class Hands:
    """The hand being played and the deal of the next (see the module docstring)."""

    def __init__(
        self, core: TableCore, scheduler: Scheduler, seating: Seating, host: Host, time_bank: TimeBankTurn
    ) -> None:
        self._core = core
        self._state = core.state
        self._scheduler = scheduler
        self._seating = seating
        self._host = host
        self._time_bank = time_bank

    # ------------------------------------------------------------------ the deal

    async def start_game(self, user_id: int, *, is_admin: bool) -> None:
        """See `TableRunner.start_game`."""
        state = self._state
        state.check_open()
        if state.options.kind is TableKind.TOURNAMENT:
            state.check_host(user_id, is_admin)
        elif state.seat_of(user_id) is None and user_id != state.ids.host_id and not is_admin:
            raise ServiceError("not_seated")
        if state.running:
            raise ServiceError("already_running")
        if not state.table.can_start_hand():
            raise ServiceError("not_enough_players")
        state.running = True
        if state.started_at is None:
            state.started_at = self._core.clock.time()
        await self.start_hand()

    async def start_hand(self) -> None:
        """Deal a new hand: the engine moves the button and posts blinds; the record is stored before anyone
        sees the hand; then the new table message and the hole cards (DM) go out."""
        state, core = self._state, self._core
        number = state.hand_number + 1
        previous_level = state.hand_level
        schedule = state.table.config.schedule
        now = state.level_clock(core.clock.time())
        level = schedule.level_index(state.table.hands_played, now) if schedule else None
        deck = core.deck_factory() if state.table.can_start_hand() else None
        try:
            hand = state.table.start_hand(now=now, deck=deck, rng=core.rng_factory())
        except PokerError:
            log.info("table %s cannot deal hand %s", state.ids.table_id, number)
            core.delivery.refresh()
            return
        seats = tuple(state.table.hand_seats)
        users = tuple(state.table.seats[s].player_id for s in seats)
        # The deck is sealed before anyone sees the hand: its fingerprint is on the first table message, and the
        # salts are stored with the hand's record (a restart keeps the same commitment).
        seal = DeckSeal.seal(hand.deck)
        record = StoredHand(hand.record(), seats, users, seal).to_json()
        state.hand, state.hand_number, state.seal = hand, number, seal
        state.hand_seats, state.hand_users = seats, users
        state.hand_level = level
        state.pre_actions.clear()
        state.time_banks.running = None
        state.time_banks.refill_for_hand(users)
        if level is not None and previous_level is not None and level > previous_level:
            state.time_banks.fill()  # a tournament's time banks are per level (issue 16)
            self._announce_level(hand)
        snap = core.snapshot()
        # The hole-card DMs (and "press My cards" when refused) are stored with the hand, told after its table message.
        dms = [
            Owed(
                new_key(),
                {
                    "type": OutboxKind.HOLE_CARDS,
                    "user_id": user,
                    "hand_number": number,
                    "cards": encode_cards(tuple(hand.hole_cards[player])),
                    "proofs": [proof.token() for proof in seal.hole_proofs(len(users), player)],
                },
                snap,
            )
            for player, user in enumerate(users)
            if not is_computer_player(user)  # a computer player reads its cards from the hand (bot.poker.players)
        ]
        table_id = state.ids.table_id
        hand_id = await core.commit(
            lambda data, rows: core.storage.start_hand(
                table_id,
                number,
                record,
                [
                    {"seat": seat, "user_id": user, "stack": stack, "player": index}
                    for index, (seat, user, stack) in enumerate(zip(seats, users, hand.starting_stacks, strict=True))
                ],
                state=data,
                outbox=[*rows, *(dm.row() for dm in dms)],
            )
        )
        state.hand_id = hand_id
        core.mark_committed()
        # The message replaced showed the table between hands: its retirement needs only what `snap` shows too.
        core.delivery.post_table(replaces_hand=False, picture=snap)
        core.delivery.queue_together(dms)  # sent at once, after the table message
        self._scheduler.start_turn()
        await self.auto_act_if_needed()

    def _announce_level(self, hand: Hand) -> None:
        """The hand just dealt opens a new blind level: say so, with the next one (issue 11 item 4)."""
        view = level_view(self._state, self._core.clock.time())
        settings = hand.settings
        self._core.announce(
            LevelAnnouncement(
                view["level"],
                settings.small_blind,
                settings.big_blind,
                settings.ante,
                view.get("next_level"),
                view.get("next_level_in"),
                view["level_by"],
            )
        )

    # ------------------------------------------------------------------ the turn

    def check_turn(self, user_id: int, hand_number: int | None = None) -> int:
        """See `TableRunner.check_turn`."""
        state = self._state
        state.check_open()
        hand = state.hand
        if hand is None:
            raise ServiceError("no_hand")
        if hand_number is not None and hand_number != state.hand_number:
            raise ServiceError("stale_button")
        player = state.player_of(user_id)
        if player is None:
            raise ServiceError("not_in_hand")
        if hand.actor != player:
            if hand.actor is None:
                raise ServiceError("no_hand")
            raise ServiceError("not_your_turn_user", actor=state.hand_users[hand.actor])
        return player

    def check_expected(self, kind: ActionKind, amount: int | None, expected: int) -> None:
        """See `TableRunner.check_expected`."""
        hand = self._state.hand
        assert hand is not None
        legal = hand.legal_actions()
        if kind is ActionKind.CALL and legal.can_call and legal.call_amount != expected:
            raise ServiceError("call_changed", amount=legal.call_amount)
        if kind is ActionKind.ALL_IN and legal.all_in_to != expected:
            raise ServiceError("all_in_changed", amount=legal.all_in_to)
        if kind in (ActionKind.BET, ActionKind.RAISE) and amount is not None and amount != expected:
            raise ServiceError("amount_changed", amount=expected)

    def amount_suggestions(self, user_id: int) -> list[tuple[str, int]]:
        """See `TableRunner.amount_suggestions`."""
        state = self._state
        hand = state.hand
        player = state.player_of(user_id)
        if hand is None or player is None or hand.actor != player:
            return []
        legal = hand.legal_actions()
        if legal.min_raise_to is None or legal.max_raise_to is None:
            return []
        low, high = legal.min_raise_to, legal.max_raise_to
        # A pot-sized raise calls first, then raises by the pot after the call (bot.poker.sizing).
        options = [
            ("min", low),
            ("half_pot", pot_raise_to(hand, HALF_POT)),
            ("pot", pot_raise_to(hand)),
            ("all_in", high),
        ]
        seen: set[int] = set()
        result: list[tuple[str, int]] = []
        for key, amount in options:
            if low <= amount <= high and amount not in seen:
                seen.add(amount)
                result.append((key, amount))
        return result

    async def act(
        self,
        user_id: int,
        kind: ActionKind,
        amount: int | None,
        *,
        hand_number: int | None,
        expected: int | None,
        stored: Stored | None = None,
    ) -> PlayerActed:
        """See `TableRunner.act`."""
        player = self.check_turn(user_id, hand_number)
        if expected is not None:
            self.check_expected(kind, amount, expected)
        self._state.expiries.pop(user_id, None)
        return await self.apply(player, kind, amount, by=ActionBy.PLAYER, stored=stored)

    async def expire(self) -> None:
        """The player to act ran out of time: their time bank starts when it holds time (the table message shows
        the new deadline; stored, so a restart keeps it); else, or when the bank runs out too, check if free,
        else fold; sat out after two in a row (the time bank: `TimeBankTurn`; the question "run it twice?" runs
        out in `RunTwice.expire`)."""
        state = self._state
        hand = state.hand
        assert hand is not None and hand.actor is not None
        player = hand.actor
        user = state.hand_users[player]
        if await self._time_bank.start(user):
            return
        state.time_banks.stop(self._core.clock.time())
        kind = ActionKind.CHECK if hand.can_check() else ActionKind.FOLD
        count = state.expiries.get(user, 0) + 1
        state.expiries[user] = count
        sat_out = count >= EXPIRIES_BEFORE_SIT_OUT and user not in state.away
        if sat_out:
            self._seating.set_away(user, state.hand_seats[player], True)
        notice = PlayerAnnouncement(NoticeKind.TIMED_OUT, user, state.name(user), action=kind.value, sat_out=sat_out)
        self._core.announce(notice)
        await self.apply(player, kind, None, by=ActionBy.TIMEOUT)

    async def forfeit(self, player: int) -> None:
        """A player who left forfeits the hand being played at once (`Hand.forfeit`), unless already folded."""
        state = self._state
        hand = state.hand
        assert hand is not None
        if hand.can_forfeit(player):
            if hand.run_twice_pending:  # the question is open: a leave counts as a no (issue 15), said so
                user = state.hand_users[player]
                self._core.announce(PlayerAnnouncement(NoticeKind.RUN_TWICE, user, state.name(user), action="left"))
            await self.apply(player, ActionKind.FOLD, None, by=ActionBy.FORFEIT)
        else:  # already folded: nothing to play
            self._core.release_held()
            self._core.delivery.refresh()

    async def apply(
        self, player: int, kind: ActionKind, amount: int | None, *, by: ActionBy, stored: Stored | None = None
    ) -> PlayerActed:
        """Verify, store (write-ahead), apply, then queue what the channel must see. `by` FORFEIT: the
        player left, their hand is folded at once, whoever is to act (`Hand.forfeit`; stored as a fold).
        `stored`: told the action (`PlayerActed`) once it is stored and applied, when what follows it in this
        operation still waits for storage (it ended the hand: the result's transaction, then the table's), so
        that its author can be answered before that (see `TableRunner.act`). Once the action is stored, the database
        unavailable for what follows it (the hand's end, a tournament's close, the next auto-actions) raises
        ServiceError("action_stands"): the action counts, and the table goes on from it when it reads storage again
        (docs/storage.md, "Outages")."""
        state, core = self._state, self._core
        hand = state.hand
        assert hand is not None and state.hand_id is not None
        forfeit = by is ActionBy.FORFEIT
        if forfeit:
            hand.verify_forfeit(player)
        else:
            hand.verify_action(kind, amount)
        hand_id = state.hand_id
        action = {"player": player, "kind": kind.value, "amount": amount, "at": core.clock.time(), "by": by.value}
        await core.commit(lambda _data, _rows: core.storage.append_action(hand_id, action), carries=False)
        before = hand.event_count
        acted = hand.forfeit(player) if forfeit else hand.act(kind, amount)
        if state.time_banks.running is not None and not forfeit:
            state.time_banks.stop(core.clock.time())  # saved with the table at the next save (the hand's end at most)
        self._prune_pre_actions()
        if stored is not None and hand.is_complete:
            try:
                stored(acted)  # the action is stored: its author need not wait for the hand's end to be stored too
            except Exception:  # the caller's own failure: the hand goes on to its end all the same
                log.exception("table %s: telling a stored action failed", state.ids.table_id)
        await self.after_stored(hand, before, forfeit=forfeit)
        return acted

    async def after_stored(self, hand: Hand, before: int, *, forfeit: bool = False) -> None:
        """`after_events` once a decision (an action, a run-it-twice answer) is stored: the database unavailable
        (or found damaged) for what follows, or a write of it timed out (it may still land: `STORAGE_FAULTS`), raises
        ServiceError("action_stands"), not "nothing was changed": the decision counts and the table goes on from it
        when it reads storage again.
        `forfeit` (a leave's fold): the fault (StorageUnavailable...) is raised as it is, even from a decision
        it set off (an away player's fold), for `TableRunner.leave` to say leave_pending."""
        try:
            await self.after_events(hand, before)
        except STORAGE_FAULTS as exc:  # a write refused, the database damaged, or a write that may still land
            if forfeit:
                raise
            raise ServiceError("action_stands") from exc
        except ServiceError as exc:  # a decision this one set off stands: so does this one
            cause = exc.__cause__
            if forfeit and exc.code == "action_stands" and isinstance(cause, STORAGE_FAULTS):
                raise cause from None
            raise

    async def after_events(self, hand: Hand, before: int) -> None:
        """After an action or an answer: the streets it dealt, then the hand's end, or the next turn (or the
        run-it-twice question's timer)."""
        state, core = self._state, self._core
        new = hand.events_since(before)

        def names() -> list[str]:
            return [state.name(user) for user in state.hand_users]

        picture = None  # the streets of one action (a run-out's) share one picture: nothing changes between them
        for street in street_announcements(hand, new, state.hand_number, names):
            picture = core.announce(street, picture)  # a street is dealt (with the odds of an all-in run-out)
        core.release_derived()
        if hand.is_complete:
            await self.finish_hand()
        elif hand.run_twice_pending and any(isinstance(e, RunTwiceAnswered) for e in new):
            self._scheduler.start_turn(state.deadline)  # the question keeps its deadline while players answer
        else:
            self._scheduler.start_turn()
            await self.auto_act_if_needed()
        core.delivery.refresh()

    async def auto_act_if_needed(self) -> None:
        """Check (when free) or fold for a tournament player sitting out, without waiting: their seat and chips
        stay, so a free check keeps their hand (only the fold is announced, once: a fold ends their hand)."""
        state = self._state
        hand = state.hand
        if hand is None or hand.actor is None:
            return
        user = state.hand_users[hand.actor]
        if user in state.away and state.options.kind is TableKind.TOURNAMENT:
            kind = ActionKind.CHECK if hand.can_check() else ActionKind.FOLD
            if kind is ActionKind.FOLD:
                notice = PlayerAnnouncement(NoticeKind.AUTO_FOLDED, user, state.name(user), action=kind.value)
                self._core.announce(notice)
            await self.apply(hand.actor, kind, None, by=ActionBy.AUTO)
            return
        choice = state.pre_actions.pop(user, None)
        if choice is not None:
            # Acting in advance (issue 16): played as the player's own press, through the same write-ahead.
            planned = resolve(choice, hand.legal_actions(), int(hand.street))
            if planned is not None:
                state.expiries.pop(user, None)
                await self.apply(hand.actor, planned, None, by=ActionBy.PLAYER)

    def pre_action_offer(self, user_id: int) -> tuple[int, int] | None:
        """See `TableRunner.pre_action_offer`."""
        state = self._state
        to_call = advance_call(state.hand, state.player_of(user_id))
        return None if to_call is None else (state.hand_number, to_call)

    def set_pre_action(self, user_id: int, action: PreAction | None, hand_number: int | None) -> PreChoice | None:
        """See `TableRunner.set_pre_action`."""
        state = self._state
        state.check_open()
        if hand_number is not None and state.hand is not None and hand_number != state.hand_number:
            raise ServiceError("stale_button")
        offer = self.pre_action_offer(user_id)
        if offer is None:
            if state.hand is None or state.hand.is_complete:
                raise ServiceError("no_hand")
            if state.player_of(user_id) is None:
                raise ServiceError("not_in_hand")
            raise ServiceError("pre_action_not_now")
        if action is None:
            state.pre_actions.pop(user_id, None)
            return None
        assert state.hand is not None
        to_call = offer[1]
        choice = PreChoice(action, int(state.hand.street), to_call if action is PreAction.CALL else None)
        state.pre_actions[user_id] = choice
        return choice

    def _prune_pre_actions(self) -> None:
        """After an action: a Call N whose amount changed, or any choice of a street that is over, is cancelled;
        so is the choice of a player who is no longer in the hand."""
        state = self._state
        hand = state.hand
        if hand is None or not state.pre_actions:
            return
        street = int(hand.street)
        for user, choice in list(state.pre_actions.items()):
            player = state.player_of(user)
            if player is None or hand.folded[player] or hand.stacks[player] == 0:
                del state.pre_actions[user]
                continue
            to_call = min(hand.current_bet - hand.bets[player], hand.stacks[player])
            if not still_valid(choice, to_call, street):
                del state.pre_actions[user]

    # ------------------------------------------------------------------ the end of a hand

    async def finish_hand(self) -> None:
        """Store the result and the new stacks in one transaction, then announce, bust, and schedule the next."""
        state, core = self._state, self._core
        hand = state.hand
        assert hand is not None and state.hand_id is not None
        self._scheduler.cancel_turn()
        state.deadline = None
        finishing = next(e.finishing_stacks for e in reversed(hand.events) if isinstance(e, HandEnded))
        stacks = dict(zip(state.hand_seats, finishing, strict=True))
        users, seats = state.hand_users, state.hand_seats
        result = hand_result(hand, state.hand_number, users, [state.name(u) for u in users])
        stats = outcomes(hand, users)
        hand_id = state.hand_id
        busted = state.table.end_hand(hand)
        picture = core.announce(result.announcement)
        state.clear_hand()
        await core.commit(
            lambda data, rows: core.storage.finish_hand(hand_id, result.stored, stacks, stats, state=data, outbox=rows)
        )
        core.delivery.retire_message(result.announcement, picture=picture)  # the same table and hand number
        await self.after_hand(busted, users, seats, hand)

    async def after_hand(
        self, busted: tuple[int, ...], users: tuple[int, ...], seats: tuple[int, ...], hand: Hand
    ) -> None:
        """Rebuys asked during the hand, eliminations (places at a tournament; a busted cash player is told how to
        buy in again), players who asked to leave, then the next deal or the end."""
        state, core = self._state, self._core
        if state.rebuys:
            await self._seating.make_rebuys()
            busted = tuple(s for s in busted if s in state.table.seats and state.table.seats[s].stack == 0)
        seat_user = dict(zip(seats, users, strict=True))
        busted_users = [seat_user[s] for s in busted]
        starting = {u: hand.starting_stacks[users.index(u)] for u in busted_users}
        ranks = places_of_busts(state.table, busted_users, starting)
        places: dict[int, int | None] = {}  # recorded with each one's seat freed (`stand`), one transaction each
        for user in sorted(busted_users, key=lambda u: -ranks[u]):  # the worst place is announced first
            place = ranks[user] if state.options.kind is TableKind.TOURNAMENT and not state.options.learning else None
            if place is not None:
                places[user] = place
                core.announce(PlayerAnnouncement(NoticeKind.ELIMINATED, user, state.name(user), place=place))
        for user in busted_users:
            if state.seat_of(user) is not None:
                # Cash: one notice, "out of chips, left the table, buy in again with /poker join" (and a button);
                # none for a player who had left during the hand (told then).
                announce = state.options.kind is TableKind.CASH and user not in state.leaving
                await self._seating.stand(user, Departure.BUSTED, announce=announce, place=places.get(user))
        for user in sorted(state.leaving | state.kicked):
            if state.seat_of(user) is not None:
                # A kick was announced as pending ("leaving"): now it is done. A leaver was told at once.
                kicked = user in state.kicked
                await self._seating.stand(user, Departure.KICKED if kicked else Departure.LEFT, announce=kicked)
        state.leaving.clear()
        state.kicked.clear()
        await core.save()
        if await self._host.end_tournament_if_won():
            return
        self._scheduler.schedule_next_hand()
