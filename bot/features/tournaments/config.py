"""What a tournament is set up with (stored in its session's ``meta.options``) and what its card
says of it: the rules in one paragraph, the start time read back as a Discord timestamp."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, fields
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.core.errors import UserError
from bot.core.text import escape
from bot.features.turn_clock import LONGEST_CLOCK, clock_words, read_duration, typed_back
from engines.tournament import (
    FORMAT_NAMES,
    KNOCKOUT,
    MIN_TURN_CLOCK,
    PLACING,
    ROUND_ROBIN,
    SWISS,
    swiss_rounds,
    turn_clock,
)
from render.wording import plural

SERIES = "series"  # Octagion: races of every player in one thread, not pairings
EVENT_NAME_LIMIT = 60
# A typical game's length in turns, both players' together (reconstruction: the five games' games
# run 20 to 60 turns); the round's time shared out over it gives each game's turn clock.
TYPICAL_TURNS = 40
DEFAULT_ROUND_SECONDS = 24 * 3600
SERIES_RACES = 3  # an Octagion series' races by default
MAX_SERIES_RACES = 10
CLOCK_TIME = re.compile(r"([0-9]{1,2}):([0-9]{2})")  # ASCII digits only


@dataclass
class EventConfig:
    """A tournament's set-up, chosen at ``/tournament create``; ``paused``, ``remaining`` and
    ``deadline`` change as it runs."""

    name: str
    game: str
    format: str
    round_seconds: int = DEFAULT_ROUND_SECONDS
    rounds: int | None = None  # Swiss: rounds; a series: races (None: the default)
    double: bool = False
    start_at: int | None = None  # unix time (None: when the host presses Start)
    rated: bool = True
    computer: bool = False
    scoring: str = PLACING  # a series: by finishing order, or by each race's own score
    paused: bool = False
    remaining: int | None = None  # a paused round's seconds left
    deadline: int | None = None  # unix time the current round's time is up

    @classmethod
    def of(cls, options: dict[str, Any]) -> EventConfig:
        known = {f.name for f in fields(cls)}
        return cls(**{key: value for key, value in options.items() if key in known})

    def to_options(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def is_series(self) -> bool:
        return self.format == SERIES

    @property
    def game_clock(self) -> int:
        """Each game's turn clock: the round's time over a typical game, at least a few minutes."""
        return turn_clock(self.round_seconds, TYPICAL_TURNS, MIN_TURN_CLOCK)


def parse_start(text: str | None, now: datetime) -> int | None:
    """The start as unix time from ``in 30m``, ``2h`` or a UTC clock time ``18:00`` (today, or
    tomorrow once it has passed); None for "when the host presses Start"."""
    if text is None or not text.strip():
        return None
    typed = text.strip().lower()
    clock = CLOCK_TIME.fullmatch(typed)
    if clock:
        hour, minute = int(clock[1]), int(clock[2])
        if hour > 23 or minute > 59:
            raise UserError(f"{typed_back(text)} is not a time of day: write it as `18:00` (UTC).")
        at = now.astimezone(UTC).replace(hour=hour, minute=minute, second=0, microsecond=0)
        if at <= now:
            at += timedelta(days=1)
        return int(at.timestamp())
    typed = typed.removeprefix("in ").strip()
    try:
        seconds = read_duration(typed)
    except UserError:
        raise UserError(
            f"{typed_back(text)} is not a start time: write `in 30m`, `2h`, or a UTC time such as `18:00`."
        ) from None
    if seconds is None:
        return None
    if not 60 <= seconds <= LONGEST_CLOCK:
        raise UserError(
            "A tournament starts 1 minute to 7 days from now: write `in 30m`, `2h`, or a UTC time such as `18:00`."
        )
    return int((now + timedelta(seconds=seconds)).timestamp())


def parse_round_time(text: str | None) -> int:
    if text is None:
        return DEFAULT_ROUND_SECONDS
    seconds = read_duration(text, "a round time", "`30m`, `1h` or `1d`")
    if seconds is None or not MIN_TURN_CLOCK <= seconds <= LONGEST_CLOCK:
        raise UserError(f"A round lasts from {MIN_TURN_CLOCK // 60} minutes to 7 days (e.g. `1h` or `1d`).")
    return seconds


def format_name(config: EventConfig) -> str:
    return "series" if config.is_series else FORMAT_NAMES[config.format]


def when_it_starts(config: EventConfig, host_id: int) -> str:
    if config.start_at is None:
        return f"Starts when <@{host_id}> presses **Start**."
    return f"Starts <t:{config.start_at}:R> (<t:{config.start_at}:f>)."


def rules_paragraph(config: EventConfig, title: str, players: int) -> str:
    """The card's rules in one paragraph: format, rounds, time, deadline rule, scoring, rating."""
    clock = clock_words(config.game_clock)
    per_round = clock_words(config.round_seconds)
    rated = "Rated" if config.rated else "Not rated"
    computer = "the computer plays too" if config.computer else "members only"
    if config.is_series:
        races = config.rounds or SERIES_RACES
        scored = "by finishing order (first of n scores n)" if config.scoring == PLACING else "by each race's score"
        return (
            f"An Octagion series of {races} races, all in one thread; points per race {scored}; "
            f"most points wins (then most races won). {rated}; {computer}."
        )
    if config.format == SWISS:
        rounds = config.rounds or (swiss_rounds(players) if players >= 2 else None)
        counted = (
            plural(rounds, "round") if rounds else "as many rounds as a sole winner needs (3 for 8 players, 4 for 16)"
        )
        shape = (
            f"Swiss, {counted}: equal scores meet, nobody twice (if unavoidable, the fewest rematches, "
            "and the card says so), one bye a round (a win) for an odd count"
        )
        breaks = "Buchholz, then Sonneborn-Berger"
    elif config.format == ROUND_ROBIN:
        shape = "Round-robin: everyone meets everyone " + ("twice" if config.double else "once")
        breaks = "Sonneborn-Berger, then head-to-head"
    else:
        shape = "Knockout, seeded by rating (byes to the top seeds); a drawn game is replayed once with sides swapped"
        breaks = ""
    deadline = "the higher seed advances" if config.format == KNOCKOUT else "it is scored a draw"
    scoring = "Win 1, draw ½, loss or forfeit 0" + (f"; ties broken by {breaks}" if breaks else "")
    return (
        f"{shape}. Each round lasts {per_round}, and every game has a turn clock of {clock} (stalling forfeits). "
        f"A game still running when its round's time is up: {deadline}. {scoring}. {rated}; {computer}."
    )


def event_name(text: str | None, title: str, config_format: str) -> str:
    if text and text.strip():
        return escape(text.strip(), EVENT_NAME_LIMIT)
    shown = "series" if config_format == SERIES else FORMAT_NAMES[config_format]
    return f"{title} {shown} tournament" if config_format != SERIES else f"{title} series"
