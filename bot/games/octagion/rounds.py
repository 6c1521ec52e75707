"""Octagion's rounds: each round is a new message through the outbox, its clock armed only once
it is out. A round ends once, by the timer or by **Got it!** (the engine refuses the second), in
the change that also writes its result and the next round's timer, so nothing is lost between
them."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.core.outbox import Outgoing
from bot.core.sessions import Change, GameSession
from bot.core.store import TimerRecord
from bot.games.octagion.names import NEXT_ROUND, RESULT_POST, ROUND_END, ROUND_OVER, ROUND_POST
from bot.ui.context import GameContext
from engines.octagion import ENGINE, round_seconds
from render import octagion as show

NEXT_ROUND_PAUSE = 15  # seconds between a round's result and the next round
MAX_TEXT = 1900


def in_phase(session: GameSession, phase: str, round_no: Any) -> bool:
    """Whether the game still runs in ``phase`` of that round (else a late post or timer does nothing)."""
    return session.status == "active" and session.state.phase == phase and session.state.round == round_no


class Rounds:
    """A round's message, its end (timer or Got it!), its result and the next round."""

    def __init__(self, ctx: GameContext, title: str, *, round_shown: Callable[[Change, int], None]):
        self.ctx = ctx
        self.title = title
        self.round_shown = round_shown  # what else starts when a round's message is out (the computers' answers)
        ctx.timers.register(ROUND_END, self._round_end_timer)
        ctx.timers.register(NEXT_ROUND, self._next_round_timer)
        ctx.outbox.register(ROUND_POST, self._build_round, self._round_visible)
        ctx.outbox.register(RESULT_POST, self._build_result)
        ctx.outbox.register(ROUND_OVER, self._build_round_over)

    async def _build_round(self, session: GameSession, payload: dict[str, Any]) -> Outgoing | None:
        """A round's message, with the deadline it shows; the clock starts once it is out."""
        if not in_phase(session, "playing", payload["round"]):
            return None  # stopped or moved on meanwhile
        deadline = self.ctx.sessions.clock() + timedelta(seconds=round_seconds(session.state))
        payload["deadline"] = session.meta.round_deadline = int(deadline.timestamp())
        return await self.ctx.table.game_picture(session)

    async def _round_visible(self, change: Change, payload: dict[str, Any], message: Any) -> None:
        if not in_phase(change.session, "playing", payload["round"]):
            return
        # The deadline the message shows (a message sent again after a crash shows a new one).
        change.record.message_id = message.id
        change.meta.round_deadline = payload["deadline"]
        change.cancel_timers([ROUND_END])
        deadline = datetime.fromtimestamp(payload["deadline"], tz=UTC)
        change.add_timer(ROUND_END, deadline, {"round": payload["round"]})
        self.round_shown(change, payload["round"])

    async def _round_end_timer(self, change: Change, timer: TimerRecord) -> None:
        state = change.state
        if not in_phase(change.session, "playing", timer.payload.get("round")):
            return  # that round already ended (Got it!, /stop, everyone left): nothing to do
        change.apply(ENGINE.to_act(state)[0], {"type": "end_round", "reason": "timer", "round": state.round}, by=None)
        self.after_round(change)

    async def got_it(self, user_id: int, session_id: int, round_no: int | None) -> None:
        """Got it! for the round it was built for (None: the current one)."""
        async with self.ctx.sessions.change(session_id) as change:
            seat = self.ctx.sessions.check_can_act(change.session, user_id, any_time=True)
            action = {"type": "got_it"} if round_no is None else {"type": "got_it", "round": round_no}
            change.apply(seat, action, by=user_id)  # the engine refuses a seat that left and a late round
            self.after_round(change)

    def after_round(self, change: Change) -> None:
        """In the change that ended a round: its result, then the next round's timer or the end."""
        state = change.state
        change.cancel_timers([ROUND_END])
        change.meta.round_deadline = None
        if state.over:
            # The result, then the last round's message shows its round again, and the score sheet
            # becomes the game message at the bottom of the channel.
            change.post(RESULT_POST, {"round": state.history[-1]["round"]})
            if change.record.message_id:
                change.post(ROUND_OVER, {"message_id": change.record.message_id})
            change.show(repost=True)
        elif state.phase == "between":
            next_at = change.now + timedelta(seconds=NEXT_ROUND_PAUSE)
            change.add_timer(NEXT_ROUND, next_at, {"round": state.round})
            change.post(RESULT_POST, {"round": state.round, "next_at": int(next_at.timestamp())})
            change.show()  # the round's message: "over, the result is below", without buttons

    async def _next_round_timer(self, change: Change, timer: TimerRecord) -> None:
        if not in_phase(change.session, "between", timer.payload.get("round")):
            return
        change.apply(ENGINE.to_act(change.state)[0], {"type": "next_round"}, by=None, quiet=True)
        change.post(ROUND_POST, {"round": change.state.round})
        await self.ctx.threads.round_notice(change, f"round {change.state.round} of {change.state.options['rounds']}")

    async def _build_result(self, session: GameSession, payload: dict[str, Any]) -> Outgoing:
        state = session.state
        record = next(r for r in state.history if r["round"] == payload["round"])
        pages = range(show.result_pages(state)) if record is state.history[-1] else range(1)
        pictures = [await self.ctx.render(show.render_round_result, state, session.names, None, None, p) for p in pages]
        text = show.result_text(state, record, session.shown_names)
        text = text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"
        if payload.get("next_at") and session.status == "active":
            # A clock time, not "in 10 seconds": the message stays true once that time has passed.
            text += f"\nRound {record['round'] + 1} follows at <t:{payload['next_at']}:T>."
        return Outgoing(text, pictures)

    async def _build_round_over(self, session: GameSession, payload: dict[str, Any]) -> Outgoing:
        state = session.state
        picture = await self.ctx.render(show.render_round, state, session.names)
        content = f"## {self.title}\nRound {state.history[-1]['round']} of {state.options['rounds']}: over."
        return Outgoing(content, [picture], edit=payload["message_id"])
