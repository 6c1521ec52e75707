"""Results: a finished game's result row and this server's ratings, in the game's last change.

The result, the ratings and the final state commit together, so a finished game always has
exactly one result (the database refuses a second one for the same session).

Ratings are OpenSkill's, shown on a familiar scale: 1500 plus ``RATING_SCALE`` times the
ordinal (mu - 3 sigma), never below zero, "provisional" until ``PROVISIONAL_GAMES`` rated games.
A game with a computer seat is not rated, so the computer never has a rating of its own.
"""

from __future__ import annotations

from typing import Any

import discord
from openskill.models import PlackettLuce

from bot.core.sessions import Change, Sessions
from bot.core.store import Rating, ResultRow, Transaction
from bot.ui.adapter import HINTS
from engines.base import Outcome
from render.replay import KINDS as REPLAYABLE
from render.replay import counts_rounds, played

RATING_START = 1500  # a new member's rating: OpenSkill's ordinal is 0 before any game
RATING_SCALE = 20  # rating points per point of OpenSkill's ordinal
PROVISIONAL_GAMES = 5  # rated games before a rating counts as settled


def shown_rating(rating: Rating) -> int:
    """A rating as members see it: 1500 + 20 x (mu - 3 sigma), never negative."""
    return max(0, round(RATING_START + RATING_SCALE * (rating.mu - 3 * rating.sigma)))


def rating_text(rating: Rating) -> str:
    """ "1568 (provisional: 1 of 5 rated games)" until the fifth rated game, then "1568"."""
    if rating.games >= PROVISIONAL_GAMES:
        return str(shown_rating(rating))
    played = f"{rating.games} of {PROVISIONAL_GAMES} rated games"
    return f"{shown_rating(rating)} (provisional: {played})"


class Results:
    def __init__(self, sessions: Sessions, bot: discord.Client | None = None):
        self.model = PlackettLuce()
        self.bot = bot  # whose seats are the computer's: a game with one is not rated
        self.store = sessions.store

    async def plan(self, change: Change) -> None:
        if not change.finished or change.outcome is None:
            return
        change.cancel_timers()
        record, outcome = change.record, change.outcome
        started = change.meta.started_at
        duration = (change.now - discord.utils.parse_time(started)).total_seconds() if started else 0.0
        row = ResultRow(
            session_id=record.id,
            game=record.game,
            guild_id=record.guild_id,
            players=list(record.players),
            scores=list(outcome.scores),
            winners=[record.players[s] for s in outcome.winners],
            moves=await self._played(change),
            duration_seconds=duration,
            finished_at=change.now,
        )

        event = change.meta.tournament  # an unrated tournament's games keep their results, not ratings
        rated = (event is None or event.get("rated", True)) and not change.meta.options.get(HINTS)  # hints: friendly

        async def write(tx: Transaction) -> None:
            if await tx.record_result(row) is not None and rated:  # exactly once
                await self._rate(tx, row, outcome)

        change.during_commit(write)

    async def _played(self, change: Change) -> int:
        """The game's length as its replay counts it (moves without a resignation or a loss on
        time; Octagion's rounds), so that `/history` and the replay agree."""
        game = change.record.game
        if game not in REPLAYABLE:
            return change.record.actions
        if counts_rounds(game):
            return played(game, change.state, [])
        earlier = await self.store.logged_moves(change.record.id)  # this change's are not written yet
        actions = [(m.seat, m.action) for m in earlier] + [(seat, action) for _, action, seat in change.logged]
        return played(game, change.state, actions)

    async def _rate(self, tx: Transaction, row: ResultRow, outcome: Outcome) -> None:
        """OpenSkill (Plackett-Luce) over the game's sides: partners are rated as one team."""
        sides = outcome.sides()
        if len(sides) < 2:  # a practice game has nobody to be rated against
            return
        if self._computer_played(row):
            return
        model = self.model
        known = {r.user_id: r for r in await tx.ratings(row.guild_id, row.game, row.players)}

        def current(user: int) -> Any:  # an openskill rating
            old = known.get(user)
            return model.rating(mu=old.mu, sigma=old.sigma) if old else model.rating()

        teams = [[current(row.players[seat]) for seat in side] for side in sides]
        rated = model.rate(teams, ranks=[outcome.ranks[side[0]] for side in sides])
        updated = []
        for side, new_ratings in zip(sides, rated, strict=True):
            for seat, new in zip(side, new_ratings, strict=True):
                user = row.players[seat]
                old = known.get(user)
                games = (old.games if old else 0) + 1
                wins = (old.wins if old else 0) + int(seat in outcome.winners and not outcome.is_draw)
                updated.append(Rating(user, new.mu, new.sigma, games, wins))
        await tx.save_ratings(row.guild_id, row.game, updated)

    def _computer_played(self, row: ResultRow) -> bool:
        """Whether the bot held a seat: a game against the computer changes nobody's rating."""
        computer = self.bot.user if self.bot is not None else None
        return computer is not None and computer.id in row.players
