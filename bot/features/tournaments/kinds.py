"""The two kinds of event, told apart here and nowhere else: a new event takes its kind from the
format chosen at ``/tournament create``; a stored one from its state's class, the one thing the
sessions hand the storage. Everything after that asks the :class:`Event` itself."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

import engines.tournament as kit
from bot.core.sessions import Planner
from bot.features.tournaments.config import SERIES, SERIES_RACES, EventConfig
from bot.features.tournaments.event import Event
from bot.features.tournaments.series_event import SeriesEvent
from bot.features.tournaments.tournament_event import TournamentEvent
from engines.tournament import Player, Series, Tournament

# Each kind by the class of the engine's state it wraps.
_KINDS: dict[type, Callable[[Any], Event]] = {Tournament: TournamentEvent, Series: SeriesEvent}


def event_of(state: Tournament | Series) -> Event:
    """The event whose engine state this is (a session's ``state``, or one loaded from a post)."""
    return _KINDS[type(state)](state)


def new_event(config: EventConfig, players: Sequence[Player]) -> Event:
    """The event ``config`` sets up, with its players (a TournamentError: too few for it)."""
    if config.is_series:
        return SeriesEvent(kit.new_series(players, config.rounds or SERIES_RACES, config.scoring))
    rounds = config.rounds if config.format == kit.SWISS else None
    return TournamentEvent(kit.new_tournament(config.format, players, rounds=rounds, double=config.double))


def load_event(data: Mapping[str, Any]) -> Event:
    if data.get("kind") == SERIES:
        return SeriesEvent(kit.load_series(dict(data["series"])))
    return TournamentEvent(kit.load(data))


class TournamentStorage:
    """How an event's state is stored in its session (each kind's dump, read back by its mark)."""

    schema = 1

    @staticmethod
    def load(data: Mapping[str, Any]) -> Tournament | Series:
        return load_event(data).state

    @staticmethod
    def dump(state: Tournament | Series) -> dict[str, Any]:
        return event_of(state).dump()


class TournamentKit:
    """The sessions' GameInfo of a tournament: its storage, and no planner of the games'."""

    title = "Tournament"
    engine = TournamentStorage()
    planners: ClassVar[list[Planner]] = []
