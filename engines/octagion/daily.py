"""Octagion Daily: one word a day for everyone, scored like a round plus a time bonus, and streaks.

Pure rules, no clock of its own: the bot passes the moments in.

- **Today's word**: the standard Word Cards' 520 entries (A1 .. M40) in a fixed seeded order,
  one per UTC day from ``DAILY_EPOCH`` (puzzle #1). The order is a new shuffle for every cycle
  of 520 days, so every word appears once before any repeats, and a cycle never starts with
  the word that ended the one before. The order is over card entries, not words: if a card's
  word is ever replaced (a new edition of the cards), only that day's word changes, and only
  from the edition's first day on: earlier days keep the word they were played with.
- **Play**: a personal countdown of ``COUNTDOWN_SECONDS`` from the first look; basic rules
  (no Treatment Cards). The last answer saved counts; a *final* answer ends the play at once.
- **Score**: the basic score (8 minus one per empty position, wrong letter or repeated
  number) plus a time bonus for a perfect final answer: +1 for every full
  ``BONUS_STEP_SECONDS`` left on the countdown, at most ``MAX_TIME_BONUS`` (as the race's
  Got it! pays only for a perfect variant). So 8 or more means perfect: a *won* day.
- **The day is over** for everyone once the last countdown that could start on it has run
  out (``CLOSING_GRACE_SECONDS`` later still): only then may members who did not play it see
  its variants, scores and solution.
- **Streaks**: days played in a row and days won in a row; a missed day resets both.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from functools import lru_cache
from typing import Any

from engines.base import IllegalAction

from .cards import TREATMENT, WORD_CARD_NAMES, WORD_LENGTH, WORDS_PER_CARD, daily_edition, word_at
from .rules import START_POINTS, parse_variant, score_variant

DAILY_EPOCH = date(2026, 1, 1)  # the day of puzzle #1 (our choice: the first day the bot offered it)
DAILY_SEED = "octagion-daily-v1"
COUNTDOWN_SECONDS = 120  # the basic rules' 2-minute timer
BONUS_STEP_SECONDS = 20
MAX_TIME_BONUS = 5
# After the last countdown of a day could end, a little longer for its timer to fire and score it.
CLOSING_GRACE_SECONDS = 60
WIN_SCORE = START_POINTS  # a perfect answer; only a perfect one earns a time bonus


# ---------------------------------------------------------------- the day and its word


def puzzle_day(moment: datetime) -> date:
    """The puzzle's day at ``moment``: the day changes at 00:00 UTC."""
    return moment.astimezone(UTC).date()


def puzzle_number(day: date) -> int:
    """Octagion Daily #1 is ``DAILY_EPOCH``'s puzzle."""
    return (day - DAILY_EPOCH).days + 1


def _entries() -> list[str]:
    return [f"{card}{entry}" for card in WORD_CARD_NAMES for entry in range(1, WORDS_PER_CARD + 1)]


@lru_cache(maxsize=8)
def _cycle(cycle: int) -> tuple[str, ...]:
    """The order of every Word Card entry in one cycle of ``len(_entries())`` days."""
    order = _entries()
    random.Random(f"{DAILY_SEED}:{cycle}").shuffle(order)
    previous = _entries()
    random.Random(f"{DAILY_SEED}:{cycle - 1}").shuffle(previous)
    if order[0] == previous[-1]:  # never the same word two days running across cycles
        order[0], order[1] = order[1], order[0]
    return tuple(order)


def daily_ref(day: date) -> str:
    """The Word Card entry of ``day``'s puzzle, e.g. "B17"."""
    count = len(WORD_CARD_NAMES) * WORDS_PER_CARD
    cycle, index = divmod((day - DAILY_EPOCH).days, count)
    return _cycle(cycle)[index]


def daily_word(day: date) -> str:
    """``day``'s word, upper case: the same in every server."""
    ref = daily_ref(day)
    return word_at(ref[0], int(ref[1:]), edition=daily_edition(day))  # past days keep their words


def day_starts_at(day: date) -> datetime:
    return datetime.combine(day, time(0), tzinfo=UTC)


def day_closes_at(day: date) -> datetime:
    """When ``day`` is over for everyone: its last possible countdown has run out and been scored."""
    return day_starts_at(day + timedelta(days=1)) + timedelta(seconds=COUNTDOWN_SECONDS + CLOSING_GRACE_SECONDS)


def day_is_over(day: date, now: datetime) -> bool:
    return now >= day_closes_at(day)


# ---------------------------------------------------------------- answers and scores


def parse_daily_answer(text: str, word: str) -> list[str | None]:
    """An answer typed as for ``/octagion play`` (``S5 T7 ...``, bare digits, ``_`` for an empty
    position). The daily puzzle plays the basic rules, which set Treatment Cards aside."""
    if TREATMENT in text:
        raise IllegalAction("the daily puzzle plays the basic rules: no Treatment Cards (*)")
    return parse_variant(text, word, treatments_left=0)


def time_bonus(seconds_left: float, perfect: bool) -> int:
    """+1 per full ``BONUS_STEP_SECONDS`` left, up to ``MAX_TIME_BONUS``, for a perfect final answer."""
    if not perfect or seconds_left <= 0:
        return 0
    return min(MAX_TIME_BONUS, int(seconds_left // BONUS_STEP_SECONDS))


@dataclass(frozen=True)
class DailyScore:
    positions: tuple[dict[str, Any], ...]  # per position: card, letter, reason, points (as score_variant)
    penalties: int
    bonus: int

    @property
    def score(self) -> int:
        return START_POINTS - self.penalties + self.bonus

    @property
    def won(self) -> bool:
        return self.score >= WIN_SCORE


def score_daily(cells: Sequence[str | None], word: str, seconds_left: float | None) -> DailyScore:
    """The score of an answer: ``seconds_left`` on the countdown for a final answer, or None
    when the countdown ran out (then the last answer saved counts, without a bonus)."""
    padded = list(cells)[:WORD_LENGTH] + [None] * (WORD_LENGTH - len(cells))  # nothing saved: eight empty positions
    scored = score_variant(padded, word)
    penalties = scored["penalties"]
    bonus = time_bonus(seconds_left or 0, perfect=penalties == 0)
    return DailyScore(tuple(scored["positions"]), penalties, bonus)


# ---------------------------------------------------------------- streaks


@dataclass(frozen=True)
class Streak:
    played: int = 0  # days played in a row
    won: int = 0  # days won (score 8 or more) in a row


def next_streak(previous: Streak | None, won: bool) -> Streak:
    """The streak after a day played, from the streak of the day before (None: not played)."""
    before = previous or Streak()
    return Streak(before.played + 1, before.won + 1 if won else 0)


def current_streak(last_day: date | None, last: Streak, today: date) -> Streak:
    """A streak as of ``today``: still alive if its last day is today or yesterday (today can
    still be played), else broken."""
    if last_day is None or (today - last_day).days > 1:
        return Streak()
    return last


@dataclass(frozen=True)
class StreakSummary:
    current: Streak
    longest: Streak  # the longest of each kind, not necessarily the same run


def streaks(plays: Iterable[tuple[date, int]], today: date) -> StreakSummary:
    """Current and longest streaks from every (day, score) a member played."""
    last_day: date | None = None
    streak = Streak()
    longest_played = longest_won = 0
    for day, score in sorted(set(plays)):
        consecutive = last_day is not None and (day - last_day).days == 1
        streak = next_streak(streak if consecutive else None, score >= WIN_SCORE)
        longest_played, longest_won = max(longest_played, streak.played), max(longest_won, streak.won)
        last_day = day
    return StreakSummary(current_streak(last_day, streak, today), Streak(longest_played, longest_won))


# ---------------------------------------------------------------- the board


@dataclass(frozen=True)
class DailyEntry:
    """One member's finished play on a day's board."""

    user_id: int
    name: str
    score: int
    seconds: float  # from the first look to the final answer (the whole countdown if it ran out)
    cells: tuple[str | None, ...]
    streak: Streak = Streak()


def ranked(entries: Iterable[DailyEntry]) -> list[tuple[int, DailyEntry]]:
    """The board: highest score first, then the quicker; equal score and whole seconds share a rank."""
    order = sorted(entries, key=lambda e: (-e.score, e.seconds, e.user_id))
    board: list[tuple[int, DailyEntry]] = []
    for place, entry in enumerate(order, start=1):
        tied = board and (board[-1][1].score, int(board[-1][1].seconds)) == (entry.score, int(entry.seconds))
        board.append((board[-1][0] if tied else place, entry))
    return board
