"""An Octagion series as the runner and the cards see it (the
:class:`~bot.features.tournaments.event.Event` protocol): races of every player at once, all in the
first race's thread, each race recorded whole by its one game, no pairings to post."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import engines.tournament as kit
from bot.core.text import NAME_LIMIT, escape
from bot.core.workers import Drawing, drawing
from bot.features.tournaments.config import SERIES, EventConfig
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
from engines.tournament import Player, RaceEntry, Series
from render.tournament import render_series_standings
from render.wording import plural

RACE_TABLE = 1  # a race is one game: the "table" of its round


@dataclass(frozen=True)
class SeriesEvent:
    state: Series

    @property
    def posts_pairings(self) -> bool:
        return False

    @property
    def higher_seed_advances(self) -> bool:
        return False

    # ------------------------------------------------------------ reading
    def dump(self) -> dict[str, Any]:
        return {"kind": SERIES, "series": kit.dump_series(self.state)}

    def has_player(self, user_id: int) -> bool:
        return user_id in [p.id for p in self.state.players]

    def name(self, user_id: int) -> str:
        return self.state.name(user_id)

    def active(self) -> tuple[Player, ...]:
        return self.state.active

    def under_way(self) -> int:
        return len(self.state.races) + 1

    def round_done(self) -> bool:
        """Its state holds finished races only: what is under way is started (again) when resumed,
        and the race's game is opened once all the same."""
        return True

    def is_done(self) -> bool:
        return kit.is_series_finished(self.state) or len(self.state.active) < 2

    # ------------------------------------------------------------ the games
    def next_round(self) -> tuple[SeriesEvent, bool]:
        return self, True  # a race needs no pairing: every player still in races

    def games_to_open(self, number: int, opened: Mapping[int, int]) -> list[tuple[int, list[int]]]:
        if len(self.state.races) + 1 != number or RACE_TABLE in opened:
            return []
        return [(RACE_TABLE, [p.id for p in self.state.active])]

    def seat(self, adapter: GameAdapter, players: list[int], seed: int, config: EventConfig) -> Seating:
        return Seating(list(players))  # a race keeps its own timing: no turn clock

    def in_first_thread(self, number: int) -> bool:
        return number > 1

    # ------------------------------------------------------------ changes
    def record(self, number: int, table: int, outcome: GameOutcome | None) -> Recorded | None:
        if len(self.state.races) + 1 != number:
            return None  # a race recorded already (its deadline)
        entries = [RaceEntry(*entry) for entry in outcome["entries"]] if outcome else []
        return self._race_run(entries)

    def withdraw(self, user_id: int) -> Recorded:
        """The race under way goes on without them (its result comes with its game's end)."""
        series = kit.withdraw_from_series(self.state, user_id)
        return Recorded(SeriesEvent(series), len(series.races) + 1, round_complete=False)

    def settle_deadline(self, number: int) -> Recorded | None:
        if len(self.state.races) + 1 != number:
            return None
        return self._race_run([])  # nobody finished in time: a race with no points

    def _race_run(self, entries: list[RaceEntry]) -> Recorded:
        series = kit.record_race(self.state, entries)
        return Recorded(SeriesEvent(series), len(series.races), round_complete=True)

    def end_by_host(self) -> SeriesEvent:
        return self  # the races run stay as they are: the standings are final

    def forget(self, member_id: int, former_id: int, name: str) -> SeriesEvent:
        return SeriesEvent(kit.forget_in_series(self.state, member_id, former_id, name))

    # ------------------------------------------------------------ what members see
    def standings_picture(self, title: str) -> Drawing:
        return drawing(render_series_standings, self.state, title)

    def pairings(self, number: int, title: str) -> tuple[str, Drawing] | None:
        return None

    def progress(self, config: EventConfig) -> str:
        clock = round_time_words(config)
        race = min(len(self.state.races) + 1, self.state.races_planned)
        return f"Race {race} of {self.state.races_planned}{clock}"

    def ended_words(self) -> str:
        return ""

    def no_champion(self) -> bool:
        return False

    def places(self) -> list[tuple[int, list[str]]]:
        return podium(kit.series_standings(self.state))

    def game_lines(self, links: Links) -> list[str]:
        lines = []
        for race in self.state.races:
            thread = thread_link(links, race.number, RACE_TABLE)
            winner = [self.state.name(e.player) for e in race.entries if e.place == 1]
            lines.append(f"Race {race.number}: won by {escape(' & '.join(winner) or 'nobody', NAME_LIMIT)}{thread}")
        return lines

    def game_label(self, number: int, table: int) -> str:
        return f"Race {number}"

    def standings_heading(self, title: str, number: int) -> str:
        return f"### {escape(title, 60)}: standings after race {number} of {self.state.races_planned}"

    def standings_lines(self) -> list[str]:
        return [
            f"{row.rank}. {escape(row.name, NAME_LIMIT)}: {points_words(row.points)}, {plural(row.wins, 'race')} won"
            for row in kit.series_standings(self.state)
        ]
