"""Results: a finished game's result row and this server's ratings, in the game's last change.

The result, the ratings and the final state commit together, so a finished game always has
exactly one result (the database refuses a second one for the same session).
"""

from __future__ import annotations

import discord
from openskill.models import PlackettLuce

from bot.core.sessions import Change, Sessions
from bot.core.store import Rating, ResultRow, Transaction
from engines.base import Outcome


class Results:
    def __init__(self, sessions: Sessions):
        self.model = PlackettLuce()
        sessions.planners.append(self._plan)

    async def _plan(self, change: Change) -> None:
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
            moves=record.actions,
            duration_seconds=duration,
            finished_at=change.now,
        )

        async def write(tx: Transaction) -> None:
            if await tx.record_result(row) is not None:  # exactly once
                await self._rate(tx, row, outcome)

        change.during_commit(write)

    async def _rate(self, tx: Transaction, row: ResultRow, outcome: Outcome) -> None:
        """OpenSkill (Plackett-Luce) over the game's sides: partners are rated as one team."""
        sides = outcome.sides()
        if len(sides) < 2:  # a practice game has nobody to be rated against
            return
        model = self.model
        known = {r.user_id: r for r in await tx.ratings(row.guild_id, row.game, row.players)}

        def current(user: int):
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
                wins = (old.wins if old else 0) + int(seat in outcome.winners)
                updated.append(Rating(user, new.mu, new.sigma, games, wins))
        await tx.save_ratings(row.guild_id, row.game, updated)
