"""The Review button of a finished game: a private review of the asking player's moves.

The review is computed from the game's record (seed, options and seated actions), never from live
state, one move at a time in the computer workers (``bot.core.workers.THINKING``), so a review
takes a worker for one move's search at a time and a computer's move waits behind one at most;
its pictures are drawn in the background lane of the pictures' pool. The private answer says how
far it has got ("Reviewing… move 20 of 64"), then shows the advantage graph, the three biggest
mistakes and a one-line summary. Stored once computed (table ``reviews``, per seat), a second
request is answered from the store, identical. One review is computed at a time per member.

Only a game's players may ask: the review judges their own moves, and nothing says a game was
public from start to end. In a game with hidden information (Octa, Octagone with four players)
each move is judged on what its player could see, the other players' moves are not judged, and
the boards are drawn as the member saw them (engines.review, render.review).
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

import discord

from bot.core.attachments import as_file
from bot.core.errors import UserError
from bot.core.sessions import GameSession
from bot.core.store import LIVE_STATUSES, Store
from bot.core.workers import WorkerPool, in_background
from bot.features.replays import HISTORY_REVIEW, Replays
from bot.ui.adapter import GameAdapter
from bot.ui.controls import Controls
from bot.ui.game_message import REVIEW
from bot.ui.replies import escape
from engines.octego import KIND_NAMES
from engines.review import (
    MoveReview,
    Played,
    Review,
    RoundsReview,
    from_json,
    judge_ply,
    kind,
    review_rounds,
    reviewable,
)
from render.review import SIGNS, advantage_graph, mistake_board, move_words, rounds_table
from render.wording import plural

PROGRESS_EVERY = 8  # moves between two edits of the private answer
PIECE_NAMES: dict[str, Mapping[str, str]] = {"octego": KIND_NAMES}  # a game's piece codes in words


class Reviews:
    def __init__(
        self,
        replays: Replays,
        thinking: WorkerPool,
        pictures: WorkerPool,
        games: Mapping[str, GameAdapter],
        controls: Controls,
    ) -> None:
        self.replays = replays  # finds the game and its seated actions
        self.store: Store = replays.store
        self.thinking, self.pictures = thinking, pictures
        self.games = games
        controls.button(REVIEW, self._clicked, ack="private")
        controls.select(HISTORY_REVIEW, self._history_review, ack="private")

    @staticmethod
    def offered(game: str) -> bool:
        return reviewable(game)

    async def _clicked(self, interaction: discord.Interaction, session_id: int, _: str) -> None:
        await self.review(interaction, session_id)

    async def _history_review(self, interaction: discord.Interaction, _: int, __: str, values: list[str]) -> None:
        """/history's "Review one of your games": the game picked, as its Review button would."""
        if not values or not values[0].isdigit():
            raise UserError("Pick one of the games in the list.")
        await self.review(interaction, int(values[0]))

    async def review(self, interaction: discord.Interaction, session_id: int) -> None:
        """The member's review of game ``session_id``: stored, or computed now; or why not."""
        session = await self.reviewed(interaction.guild_id, interaction.user.id, session_id)
        seat = session.players.index(interaction.user.id)
        stored = await self.store.query_one(
            "SELECT review FROM reviews WHERE session_id = ? AND seat = ?", (session.id, seat)
        )
        if stored is not None:
            await self._answer(interaction, session, from_json(stored[0]))
            return
        with self.replays.fair_use.reviewing(interaction.guild_id, interaction.user.id):
            review = await self._compute(interaction, session, seat)
        await self._store(session.id, seat, review)
        await self._answer(interaction, session, review)

    async def reviewed(self, guild_id: int | None, member_id: int, session_id: int) -> GameSession:
        """The finished game ``member_id`` may have reviewed, or a private refusal that says why."""
        record = await self.store.get_session(session_id)
        if record is None or record.guild_id != guild_id or record.game not in self.games:
            raise UserError(f"There is no game #{session_id} in this server.")
        title = self.games[record.game].title
        if not reviewable(record.game):
            raise UserError(f"{title} has no computer review yet.")
        if record.status in LIVE_STATUSES:
            raise UserError(f"{title} #{session_id} is still being played: its review comes once it ends.")
        if record.status not in ("finished", "stopped") or not record.state:
            raise UserError(f"{title} #{session_id} was never played, so there is nothing to review.")
        session = await self.replays.sessions.load(session_id)
        if member_id not in session.players:
            raise UserError(f"Only the players of {title} #{session_id} can ask for its review: it judges their moves.")
        return session

    # ------------------------------------------------------------ computing
    async def _played(self, session: GameSession) -> Played:
        """The finished game as its record replays it."""
        engine = self.games[session.record.game].engine
        options = dict(engine.replay_options(session.state, session.options))
        moves = await self.replays.moves(session)
        return Played(session.record.game, session.state.players, options, session.meta.seed, tuple(moves))

    async def _compute(
        self, interaction: discord.Interaction, session: GameSession, seat: int
    ) -> Review | RoundsReview:
        in_background()  # nobody waits for this at the table: players' pictures go first
        played = await self._played(session)
        game, moves = played.game, played.actions
        if kind(game) == "rounds":  # a race: each round against the solver, in one worker call
            await _edit(interaction, content="🔍 Reviewing… every round against the solver")
            rounds: RoundsReview = await self.thinking.run(review_rounds, played, seat)
            return rounds
        judged: list[MoveReview] = []
        for ply in range(1, len(moves) + 1):
            if ply == 1 or ply % PROGRESS_EVERY == 0:
                await _edit(interaction, content=f"🔍 Reviewing… move {ply} of {len(moves)}")
            move = await self.thinking.run(judge_ply, played, ply, None, seat)
            if move is not None:
                judged.append(move)
        return Review(game, seat, tuple(judged))

    async def _store(self, session_id: int, seat: int, review: Review | RoundsReview) -> None:
        async with self.store.transaction() as tx:
            tx.write(
                "INSERT INTO reviews (session_id, seat, review) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                (session_id, seat, review.to_json()),
            )

    # ------------------------------------------------------------ the answer
    async def _answer(
        self, interaction: discord.Interaction, session: GameSession, review: Review | RoundsReview
    ) -> None:
        names = list(session.names)
        if isinstance(review, RoundsReview):
            table = await self.pictures.run(rounds_table, review.to_json(), names[review.seat])
            await _edit(interaction, content=self.rounds_text(session, review), attachments=[as_file(table)])
            return
        played = await self._played(session)
        graph = await self.pictures.run(advantage_graph, review.to_json(), names[review.seat])
        worst = review.worst()
        boards = []
        for move in worst:
            line = why(played.game, move, names)
            boards.append(await self.pictures.run(mistake_board, played, asdict(move), names, line))
        text = self.text(session, review)
        await _edit(interaction, content=text, attachments=[as_file(graph), *map(as_file, boards)])

    def rounds_text(self, session: GameSession, review: RoundsReview) -> str:
        """A race's review: the points against the solver's, then each round that fell short."""
        title = self.games[session.record.game].title
        rounds = len(review.rounds)
        lines = [
            f"🔍 **Review of {title} #{session.id}** for {session.bold_names[review.seat]}: "
            f"{plural(review.points(), 'point')} against the solver's {review.best_points()}; "
            f"{review.at_best()} of {plural(rounds, 'round')} as well as the solver."
        ]
        for entry in review.rounds:
            if entry["points"] < entry["best_points"]:
                cards = " ".join(card or "-" for card in entry["best"])
                lines.append(
                    f"Round {entry['round']}, {entry['word']}: {plural(entry['points'], 'point')}; "
                    f"the solver's {cards} scores {entry['best_points']}."
                )
        return "\n".join(lines)

    def text(self, session: GameSession, review: Review) -> str:
        title = self.games[session.record.game].title
        lines = [f"🔍 **Review of {title} #{session.id}** for {session.bold_names[review.seat]}: {summary(review)}"]
        turn = review.turning_point()
        if turn is not None:
            lines.append(f"The game turned at move {review.moves[turn - 1].ply}.")
        names = list(session.names)
        for number, move in enumerate(review.worst(), start=1):
            lines.append(f"{number}. Move {move.ply} {SIGNS[move.mark or '']}: {escape(why(review.game, move, names))}")
        if not review.worst():
            lines.append("No inaccuracy, mistake or blunder: well played.")
        return "\n".join(lines)


async def _edit(interaction: discord.Interaction, **changes: Any) -> None:
    with contextlib.suppress(discord.HTTPException):  # the answer was dismissed: the review is still stored
        await interaction.edit_original_response(**changes)


def summary(review: Review) -> str:
    """ "accuracy 81 %: 4 best, 7 good, 3 inaccuracies, 1 mistake, 0 blunders"."""
    counts = review.counts()
    many = {"best": "best", "good": "good", "inaccuracy": "inaccuracies"}
    marks = ", ".join(plural(counts[mark], mark, many.get(mark)) for mark in counts)
    accuracy = review.accuracy()
    if accuracy is None:
        return f"every move was forced ({marks})."
    return f"accuracy {accuracy:.0f} %: {marks}."


def why(game: str, move: MoveReview, names: list[str]) -> str:
    """One line on a mistake: what the move played allowed and the mover's chances before and
    after, then what the better move does ("c4-d5 lets Bo take your Octego (61% to 20%); b2-c3
    was better")."""
    facts, pieces = move.facts, PIECE_NAMES.get(game, {})
    opponent = names[1 - move.seat] if len(names) == 2 else "the others"
    chances = f"{move.before:.0%} to {move.after:.0%}"
    played_words, best_words = move_words(move.played), move_words(move.best)
    if facts.get("allows_win"):
        played = f"{played_words} lets {opponent} win next move ({chances})"
    elif "allows_capture" in facts:
        played = f"{played_words} lets {opponent} take your {pieces.get(facts['allows_capture'], 'piece')} ({chances})"
    else:
        played = f"{played_words} lowers your chances from {chances}"
    if facts.get("best_wins"):
        better = f"{best_words} wins at once"
    elif "best_captures" in facts:
        better = f"{best_words} takes {opponent}'s {pieces.get(facts['best_captures'], 'piece')}"
    else:
        better = f"{best_words} was better"
    return f"{played}; {better}."
