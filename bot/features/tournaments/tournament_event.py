"""A tournament of two-player games (Swiss, round-robin, knockout) as the runner and the cards see
it (the :class:`~bot.features.tournaments.event.Event` protocol): rounds of pairings, a result per
table, the pairings posted each round, the higher seed advancing at a knockout's deadline."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import engines.tournament as kit
from bot.core.text import NAME_LIMIT, escape
from bot.core.workers import Drawing, drawing
from bot.features.tournaments.config import EventConfig
from bot.features.tournaments.event import (
    GameOutcome,
    Links,
    Recorded,
    Seating,
    podium,
    points_words,
    round_time_words,
    thread_link,
)
from bot.ui.adapter import GameAdapter
from engines.tournament import Pairing, Player, Tournament
from render.tournament import render_pairings, render_standings, result_words
from render.wording import plural


@dataclass(frozen=True)
class TournamentEvent:
    state: Tournament

    @property
    def posts_pairings(self) -> bool:
        return True

    @property
    def higher_seed_advances(self) -> bool:
        return self.state.format == kit.KNOCKOUT

    # ------------------------------------------------------------ reading
    def dump(self) -> dict[str, Any]:
        return kit.dump(self.state)

    def has_player(self, user_id: int) -> bool:
        return user_id in [p.id for p in self.state.players]

    def name(self, user_id: int) -> str:
        return self.state.name(user_id)

    def active(self) -> tuple[Player, ...]:
        return self.state.active

    def under_way(self) -> int:
        return len(self.state.rounds)

    def round_done(self) -> bool:
        return kit.is_round_complete(self.state)

    def is_done(self) -> bool:
        return kit.is_finished(self.state)

    # ------------------------------------------------------------ the games
    def next_round(self) -> tuple[TournamentEvent, bool]:
        paired = kit.pair_next_round(self.state)
        return TournamentEvent(paired), not kit.is_round_complete(paired)

    def games_to_open(self, number: int, opened: Mapping[int, int]) -> list[tuple[int, list[int]]]:
        if len(self.state.rounds) < number:
            return []
        return [(p.table, list(p.players)) for p in self.state.round(number).running() if p.table not in opened]

    def seat(self, adapter: GameAdapter, players: list[int], seed: int, config: EventConfig) -> Seating:
        """The pairing's first player sits where this deal moves first, so the pairing, its
        picture, the card and the game name the same player; each game has the round's turn clock."""
        options = adapter.challenge_options({}, {"challenger": players[0], "opponent": players[1]})
        first_seat = _first_seat(adapter, options, seed)
        seated = [players[1], players[0]] if first_seat else list(players)
        return Seating(seated, options, first_seat, config.game_clock)

    def in_first_thread(self, number: int) -> bool:
        return False  # every game has a thread of its own

    # ------------------------------------------------------------ changes
    def record(self, number: int, table: int, outcome: GameOutcome | None) -> Recorded | None:
        if self.state.round(number).pairing(table).result is not None:
            return None  # scored already (the deadline, a withdrawal)
        result = outcome["result"] if outcome else None
        if result is None:  # stopped with no result of its own: its round's time was up
            result = kit.DEADLINE
        state = kit.record_result(self.state, number, table, result)
        replayed = any(p.replay_of == table and p.result is None for p in state.round(number).pairings)
        return self._step(state, reopen=replayed)

    def withdraw(self, user_id: int) -> Recorded:
        """Their game still running is their forfeit (and its session is resigned: ``resign_at``)."""
        running = self.state.current_pairing(user_id)
        state = kit.withdraw(self.state, user_id)
        return self._step(state, resign_at=running.table if running is not None else None)

    def settle_deadline(self, number: int) -> Recorded | None:
        if number != len(self.state.rounds) or kit.is_round_complete(self.state):
            return None
        note = f"⏰ Round {number}'s time is up: games still running were scored."
        return self._step(kit.settle_deadline(self.state), note=note)

    @staticmethod
    def _step(
        state: Tournament, *, reopen: bool = False, note: str | None = None, resign_at: int | None = None
    ) -> Recorded:
        complete = kit.is_round_complete(state)
        return Recorded(TournamentEvent(state), len(state.rounds), complete, reopen, note, resign_at)

    def end_by_host(self) -> TournamentEvent:
        return TournamentEvent(kit.end_by_host(self.state))

    def forget(self, member_id: int, former_id: int, name: str) -> TournamentEvent:
        return TournamentEvent(kit.forget_player(self.state, member_id, former_id, name))

    # ------------------------------------------------------------ what members see
    def standings_picture(self, title: str) -> Drawing:
        return drawing(render_standings, self.state, title)

    def pairings(self, number: int, title: str) -> tuple[str, Drawing] | None:
        if len(self.state.rounds) < number:
            return None
        return pairings_text(self.state, number, title), drawing(render_pairings, self.state, number, title)

    def progress(self, config: EventConfig) -> str:
        clock = round_time_words(config)
        current = self.state.current_round
        running = len(current.running()) if current else 0
        number = current.number if current else 0
        games = plural(running, "game") + " running" if running else "round complete"
        rematch = (
            f" · {plural(current.rematches, 'rematch', 'rematches')} (none avoidable)"
            if current and current.rematches
            else ""
        )
        return f"Round {number} of {self.state.rounds_planned} · {games}{clock}{rematch}"

    def ended_words(self) -> str:
        after = self.state.ended_after
        if after is None:
            return ""
        return f" (ended by the host after round {after})" if after else " (ended by the host in round 1)"

    def no_champion(self) -> bool:
        return kit.final_forfeited(self.state)

    def places(self) -> list[tuple[int, list[str]]]:
        return podium(kit.standings(self.state))

    def game_lines(self, links: Links) -> list[str]:
        lines = []
        for round_ in self.state.rounds:
            games = []
            for pairing in round_.pairings:
                if pairing.is_bye:
                    games.append(f"{escape(self.state.name(pairing.first), NAME_LIMIT)} bye")
                    continue
                games.append(_game_words(self.state, pairing) + thread_link(links, round_.number, pairing.table))
            lines.append(f"R{round_.number}: " + " · ".join(games))
        return lines

    def game_label(self, number: int, table: int) -> str:
        return f"Round {number}, table {table}"

    def standings_heading(self, title: str, number: int) -> str:
        return f"### {escape(title, 60)}: standings after round {number} of {self.state.rounds_planned}"

    def standings_lines(self) -> list[str]:
        return [
            f"{row.rank}. {escape(row.name, NAME_LIMIT)}: {points_words(row.points)}"
            + (" (withdrew)" if row.withdrawn else "")
            for row in kit.standings(self.state)
        ]


def pairings_text(state: Tournament, number: int, name: str) -> str:
    round_ = state.round(number)
    lines = [f"### {escape(name, 60)}: round {number} of {state.rounds_planned}"]
    for pairing in round_.pairings:
        if pairing.is_bye:
            lines.append(f"Bye: <@{pairing.first}> (scores a win)")
        elif pairing.result is not None:
            lines.append(f"Table {pairing.table}: {_game_words(state, pairing)}")
        else:
            replay = f" (replay of table {pairing.replay_of})" if pairing.replay_of is not None else ""
            lines.append(f"Table {pairing.table}{replay}: <@{pairing.first}> (moves first) v <@{pairing.second}>")
    if round_.rematches:
        lines.append(f"⚠️ {plural(round_.rematches, 'rematch', 'rematches')}: no pairing without one was possible.")
    lines.append("Each game has its own thread; the players are pinged there.")
    return "\n".join(lines)


def _game_words(state: Tournament, pairing: Pairing) -> str:
    first, second = (escape(state.name(p), NAME_LIMIT) for p in pairing.players)
    said = result_words(state, pairing)
    return f"{first} ({said[0]}) v {second} ({said[1]})"


def _first_seat(adapter: GameAdapter, options: dict[str, Any], seed: int) -> int:
    """The seat that moves first in a two-player game dealt from ``seed`` (Octa, Octagone and
    Octiles draw it at random, Octego's is seat 0)."""
    acting = adapter.engine.to_act(adapter.engine.new_game(2, options, seed))
    return acting[0] if len(acting) == 1 else 0
