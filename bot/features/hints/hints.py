"""The Hint button of a game message, and `/hint` (bot/features/game_commands.py), which presses it.

A hint is the computer's suggested action for the member whose turn it is, answered privately: the
game's picture with the places the action touches ringed, the action as the record writes it, and a
one-line reason told from the events the engine emits for it (render/hints.py). It is offered in
games against the computer and in games whose challenge allowed hints (``hints``, which makes the
game friendly: not rated); never in a tournament's game (``GameAdapter.hints_allowed``).

At most one a turn per player: the turn of each seat's last hint and each seat's count are kept in
the session's options (``HINTS_USED``, ``HINT_TURNS``), written through ``sessions.change``, so a
restart forgets neither; the game message, its card and its record say who used how many. A turn
is the seat's run of actions since another seat last acted (Octa's steps are one turn).

The search runs in the computer workers at the hard level, within that level's node budget, and the
review's judge checks it on what the member could know (bot/features/hints/advice.py); when
every worker is busy (computer players thinking), the member is asked to try again rather than
queued ahead of them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.core.errors import UserError
from bot.core.sessions import GameSession, Sessions
from bot.core.workers import WorkerPool
from bot.features.hints.advice import LEVEL, Advice, advise
from bot.features.replays import Replays
from bot.ui.adapter import HINT, HINT_TURNS, HINTS_USED, GameAdapter
from bot.ui.controls import Controls
from bot.ui.replies import reply_private
from engines.review import Played
from render.hints import hint_picture, marks, reason
from render.wording import plural

ONE_A_TURN = "You already had this turn's hint: one a turn. Ask again on your next turn."
BUSY = "The computer is busy thinking in other games: ask for your hint again in a moment."
MOVED_ON = "The game moved on while I was thinking: ask again for a hint on this position."


class Hints:
    def __init__(
        self,
        sessions: Sessions,
        replays: Replays,
        games: Mapping[str, GameAdapter],
        thinking: WorkerPool,
        pictures: WorkerPool,
        controls: Controls,
    ) -> None:
        self.sessions = sessions
        self.replays = replays  # the game's seated actions, for the judge (as reviews read them)
        self.games = games
        self.thinking, self.pictures = thinking, pictures
        controls.button(HINT, self._clicked, ack="private")

    async def _clicked(self, interaction: discord.Interaction, session_id: int, _: str) -> None:
        session = await self.sessions.load(session_id)
        adapter = self.games.get(session.record.game)
        if adapter is None:
            raise UserError("This is not a game: there is no hint to give.")
        seat = self.asking_seat(session, adapter, interaction.user.id)
        moves = await self.replays.moves(session)
        turn = turn_of(moves, seat)
        if _last_turn(session.options, seat) == turn:
            raise UserError(ONE_A_TURN)
        if self.thinking.pending >= self.thinking.workers:  # never queued ahead of a computer's move
            raise UserError(BUSY)
        advice = await self.advise(session, adapter, seat, moves)
        async with self.sessions.change(session_id) as change:
            if change.record.actions != session.action_number:
                raise UserError(MOVED_ON)
            used = _count(change.meta.options, seat, turn)
        await self.answer(interaction, session, seat, advice, used)

    def asking_seat(self, session: GameSession, adapter: GameAdapter, user_id: int) -> int:
        """The seat of the member asking, or a private refusal that says why there is no hint."""
        if not adapter.hintable:
            raise UserError(adapter.no_hints)
        if session.status != "active" or session.state is None:
            raise UserError("Hints are for a game being played.")
        seat = session.seat_of(user_id)
        if seat is None:
            raise UserError("Only the players of this game can ask for a hint.")
        if session.meta.tournament is not None:
            raise UserError("Hints are off in tournament games: every player there plays on their own.")
        if not adapter.hints_allowed(session):
            raise UserError(
                "Hints are off in this game: it is rated. Hints come in games against me, and in friendly "
                f"games whose challenge allows them (`/{adapter.name} challenge` with `hints: True`)."
            )
        if seat not in adapter.engine.to_act(session.state):
            raise UserError("A hint is for your turn: ask again once it is your move.")
        return seat

    async def advise(
        self, session: GameSession, adapter: GameAdapter, seat: int, moves: Sequence[tuple[int, dict[str, Any]]]
    ) -> Advice:
        """The computer's suggestion for ``seat``, in a thinking worker; ``moves``: the game's
        seated actions so far."""
        choose = type(adapter).computer_player  # a plain function, not a method (as the computer players call it)
        level = LEVEL if LEVEL in adapter.computer_levels else adapter.computer_levels[-1]
        seed = session.meta.seed + session.action_number
        engine = adapter.engine
        options = dict(engine.replay_options(session.state, session.options))
        record = Played(session.record.game, session.state.players, options, session.meta.seed, tuple(moves))
        advice: Advice = await self.thinking.run(advise, choose, engine, session.state, seat, level, seed, record)
        return advice

    async def answer(
        self, interaction: discord.Interaction, session: GameSession, seat: int, advice: Advice, used: int
    ) -> None:
        game = session.record.game
        why = reason(game, seat, advice.events, advice.wins, session.bold_names)
        ringed = marks(game, advice.action, advice.events)
        picture = await self.pictures.run(hint_picture, game, session.state, session.names, ringed)
        text = (
            f"💡 **Hint** (only you can see this): `{advice.notation}`: {why}.\n"
            f"-# You have used {plural(used, 'hint')} in this game; one a turn, and the game's message says so."
        )
        await reply_private(interaction, text, picture)


def turn_of(moves: Sequence[tuple[int, dict[str, Any]]], seat: int) -> int:
    """The seat's turn, numbered by where it began in the game's seated actions: after the last
    action of another seat (so the steps of one turn share a number)."""
    others = [at for at, (mover, _) in enumerate(moves) if mover != seat]
    return others[-1] + 1 if others else 0


def _last_turn(options: Mapping[str, Any], seat: int) -> int | None:
    """The turn of ``seat``'s last hint (stored by seat as text: the options are JSON)."""
    turns: Mapping[str, int] = options.get(HINT_TURNS) or {}
    return turns.get(str(seat))


def _count(options: dict[str, Any], seat: int, turn: int) -> int:
    """Note a hint for ``seat`` in ``turn`` in a change's options (refused if it had one this turn);
    its count in this game."""
    if _last_turn(options, seat) == turn:
        raise UserError(ONE_A_TURN)
    turns = dict(options.get(HINT_TURNS) or {})
    turns[str(seat)] = turn
    used = list(options.get(HINTS_USED) or [])
    used += [0] * (seat + 1 - len(used))
    used[seat] += 1
    options[HINT_TURNS], options[HINTS_USED] = turns, used
    count: int = used[seat]
    return count
