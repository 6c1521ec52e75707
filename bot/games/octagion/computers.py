"""Octagion's computer teams: the host adds them in the lobby (they sit after the members, one
seat per team), and in each round each one answers some seconds in, sooner the stronger it is;
a hard one that is sure of its variant calls Got it!."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from bot.core.sessions import Change
from bot.core.store import TimerRecord
from bot.games.octagion.names import COMPUTER_MOVE
from bot.games.octagion.rounds import in_phase
from bot.ui.context import GameContext
from engines.octagion import choose_action, round_seconds, team_of, think_seconds

MAX_COMPUTER_TEAMS = 4


def computers_of(options: dict[str, Any]) -> list[str]:
    """The levels of the computer teams the host added (they sit after the members, one per team)."""
    return list(options.get("computers", []))


def computer_name(index: int, count: int, level: str) -> str:
    return f"Computer {index + 1} ({level})" if count > 1 else f"Computer ({level})"


def _only_computers_left(state: Any, computers: range) -> bool:
    return all(state.resigned[seat] for seat in range(state.players) if seat not in computers)


class ComputerTeams:
    """The computer teams' answers: a timer per team and round, armed when the round is shown."""

    def __init__(self, ctx: GameContext, after_round: Callable[[Change], None]):
        self.ctx = ctx
        self.after_round = after_round  # what a Got it! of a computer's goes on to (the round's result)
        ctx.timers.register(COMPUTER_MOVE, self._answer)

    def think(self, change: Change, round_no: int) -> None:
        """Each computer team answers some seconds into the round (sooner the stronger it is); a
        round's message sent again after a crash arms them again."""
        change.cancel_timers([COMPUTER_MOVE])
        computers = computers_of(change.meta.options)
        first_seat = change.state.players - len(computers)
        seconds = round_seconds(change.state)
        for k, level in enumerate(computers):
            when = change.now + timedelta(seconds=think_seconds(level, seconds))
            change.add_timer(COMPUTER_MOVE, when, {"round": round_no, "seat": first_seat + k, "level": level})

    async def _answer(self, change: Change, timer: TimerRecord) -> None:
        """A computer team sets its variant and, if it is sure of it (hard), calls Got it!."""
        seat, level = timer.payload.get("seat"), timer.payload.get("level", "medium")
        round_no = timer.payload.get("round")
        computers = range(change.state.players - len(computers_of(change.meta.options)), change.state.players)
        if in_phase(change.session, "playing", round_no) and _only_computers_left(change.state, computers):
            self._leave(change, computers)
            return
        for _ in range(2):  # its variant, then perhaps Got it!
            state = change.state
            if not in_phase(change.session, "playing", round_no) or state.resigned[seat]:
                return
            action = choose_action(state, seat, level, change.meta.seed + state.round)
            if action == {"type": "set_variant", "cards": state.variants[team_of(state, seat)]}:
                return  # nothing better to do
            change.apply(seat, action, by=self.ctx.me, quiet=action["type"] != "got_it")
            if action["type"] == "got_it":
                self.after_round(change)

    def _leave(self, change: Change, computers: range) -> None:
        """Nobody is left to play against: the computers leave too."""
        for computer in computers:
            if change.state.outcome is None and not change.state.resigned[computer]:
                change.apply(computer, {"type": "resign"}, by=self.ctx.me)
