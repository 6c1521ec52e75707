"""Octagion Daily's rules: the day's word, the score with its time bonus, streaks and the board."""

from __future__ import annotations

import itertools
from datetime import UTC, date, datetime, timedelta, timezone

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from engines.base import IllegalAction
from engines.octagion import (
    COUNTDOWN_SECONDS,
    DAILY_EPOCH,
    MAX_TIME_BONUS,
    DailyEntry,
    Streak,
    daily_word,
    day_closes_at,
    day_is_over,
    next_streak,
    parse_daily_answer,
    puzzle_day,
    puzzle_number,
    ranked,
    score_daily,
    solution,
    streaks,
)
from engines.octagion.cards import (
    DECK,
    WORD_CARD_NAMES,
    WORD_CARDS_EDITION,
    daily_edition,
    retired_word_cards,
    word_at,
    word_cards,
)
from engines.octagion.daily import daily_ref, time_bonus

CYCLE = 13 * 40  # every standard Word Card entry once
STANDARD_WORDS = sorted(word for card in word_cards().values() for word in card)
ENTRIES = sorted(f"{card}{entry}" for card in WORD_CARD_NAMES for entry in range(1, 41))
WORD = "STRANGER"
ANSWER = solution(WORD)


def days(first: date, count: int) -> list[date]:
    return [first + timedelta(days=k) for k in range(count)]


# ---------------------------------------------------------------- the day and its word


@pytest.mark.parametrize("cycle", [-1, 0, 1, 7])
def test_every_word_appears_once_before_any_repeats(cycle):
    """Every entry once a cycle, each with the word of the cards the day is dealt from: a cycle
    wholly dealt from one edition of the cards asks each of that edition's words once."""
    first = DAILY_EPOCH + timedelta(days=cycle * CYCLE)
    cycle_days = days(first, CYCLE)
    assert sorted(daily_ref(day) for day in cycle_days) == ENTRIES
    for day in cycle_days:
        ref = daily_ref(day)
        assert daily_word(day) == word_at(ref[0], int(ref[1:]), edition=daily_edition(day))
    editions = {daily_edition(day) for day in cycle_days}
    if editions == {WORD_CARDS_EDITION}:
        assert sorted(daily_word(day) for day in cycle_days) == STANDARD_WORDS


def test_days_before_the_cards_changed_keep_their_words_and_later_days_never_ask_a_retired_one():
    (retired,) = [entry for entry in retired_word_cards() if entry.edition == WORD_CARDS_EDITION]
    before = [day for day in days(DAILY_EPOCH, CYCLE) if day < retired.daily_from]
    after = days(retired.daily_from, 3 * CYCLE)
    old_days = [day for day in before if daily_ref(day) in retired.standard]
    assert old_days, "some day before the change asked a retired entry"
    assert all(daily_word(day) == retired.standard[daily_ref(day)] for day in old_days)
    assert not {daily_word(day) for day in after} & set(retired.standard.values())


def test_no_word_two_days_running_not_even_across_cycles():
    for cycle in range(-3, 12):
        boundary = DAILY_EPOCH + timedelta(days=cycle * CYCLE)
        assert daily_word(boundary - timedelta(days=1)) != daily_word(boundary)
    words = [daily_word(day) for day in days(DAILY_EPOCH, 3 * CYCLE)]
    assert all(a != b for a, b in itertools.pairwise(words))


def test_the_order_is_fixed_and_the_same_everywhere():
    """A golden value: changing the seed or the order would change every server's puzzles."""
    assert daily_ref(DAILY_EPOCH) == "K26"
    assert daily_word(DAILY_EPOCH) == "INCIDENT"
    assert daily_word(date(2026, 1, 5)) == "ABSTRACT"
    assert puzzle_number(DAILY_EPOCH) == 1
    assert puzzle_number(date(2026, 2, 1)) == 32


def test_the_day_changes_at_midnight_utc():
    last_second = datetime(2026, 3, 1, 23, 59, 59, tzinfo=UTC)
    assert puzzle_day(last_second) == date(2026, 3, 1)
    assert puzzle_day(last_second + timedelta(seconds=1)) == date(2026, 3, 2)
    new_york = timezone(timedelta(hours=-5))
    assert puzzle_day(datetime(2026, 3, 1, 20, 0, tzinfo=new_york)) == date(2026, 3, 2)  # 01:00 UTC


def test_a_day_is_over_once_its_last_countdown_has_run_out():
    day = date(2026, 3, 1)
    last_start = datetime(2026, 3, 1, 23, 59, 59, tzinfo=UTC)
    assert not day_is_over(day, last_start + timedelta(seconds=COUNTDOWN_SECONDS))
    assert day_is_over(day, day_closes_at(day))
    assert day_closes_at(day) > last_start + timedelta(seconds=COUNTDOWN_SECONDS)


# ---------------------------------------------------------------- answers and scores


def test_answers_are_typed_as_for_octagion_play_without_treatment_cards():
    assert parse_daily_answer(" ".join(ANSWER), WORD) == ANSWER
    digits = " ".join(card[1] for card in ANSWER[:3])
    assert parse_daily_answer(digits, WORD) == [*ANSWER[:3], None, None, None, None, None]
    with pytest.raises(IllegalAction, match="no Treatment Cards"):
        parse_daily_answer("* " + " ".join(ANSWER[1:]), WORD)
    with pytest.raises(IllegalAction, match="1 to 8"):
        parse_daily_answer("9", WORD)


@pytest.mark.parametrize(
    ("seconds_left", "bonus"),
    [(119.5, 5), (100, 5), (99.9, 4), (80, 4), (40, 2), (39, 1), (20, 1), (19.9, 0), (0, 0), (-3, 0)],
)
def test_the_time_bonus_is_one_point_per_full_twenty_seconds_left_up_to_five(seconds_left, bonus):
    assert time_bonus(seconds_left, perfect=True) == bonus
    assert time_bonus(seconds_left, perfect=False) == 0


def test_scores_of_final_answers_and_of_the_countdown_running_out():
    assert score_daily(ANSWER, WORD, seconds_left=110).score == 13
    assert score_daily(ANSWER, WORD, seconds_left=None).score == 8  # time ran out: no bonus, still a win
    slip = [None, *ANSWER[1:]]
    assert (score_daily(slip, WORD, 110).score, score_daily(slip, WORD, 110).bonus) == (7, 0)
    assert score_daily([], WORD, None).score == 0  # nothing saved: eight empty positions
    wrong_letter = [*ANSWER[:7], "X" + ANSWER[7][1]]
    assert (score_daily(wrong_letter, WORD, 60).score, score_daily(wrong_letter, WORD, 60).won) == (7, False)


@given(
    st.lists(st.one_of(st.none(), st.sampled_from(DECK)), max_size=8),
    st.one_of(st.none(), st.floats(-10, COUNTDOWN_SECONDS)),
)
def test_a_win_is_exactly_a_perfect_answer_and_the_bonus_is_bounded(cells, seconds_left):
    assume(len(set(filter(None, cells))) == len([c for c in cells if c]))  # a deck has one of each card
    scored = score_daily(cells, WORD, seconds_left)
    assert 0 <= scored.bonus <= MAX_TIME_BONUS
    assert scored.won == (scored.penalties == 0)
    assert scored.score == 8 - scored.penalties + scored.bonus


# ---------------------------------------------------------------- streaks


def test_streaks_count_consecutive_days_played_and_won():
    d = date(2026, 5, 1)
    summary = streaks([(d, 13), (d + timedelta(1), 7), (d + timedelta(2), 9), (d + timedelta(3), 8)], d + timedelta(3))
    assert summary.current == Streak(played=4, won=2)
    assert summary.longest == Streak(played=4, won=2)


def test_a_missed_day_resets_both_streaks_and_yesterday_keeps_them_alive():
    d = date(2026, 5, 1)
    plays = [(d, 10), (d + timedelta(1), 10), (d + timedelta(3), 10)]
    assert streaks(plays, d + timedelta(3)).current == Streak(1, 1)
    assert streaks(plays, d + timedelta(4)).current == Streak(1, 1)  # today not played yet: still alive
    assert streaks(plays, d + timedelta(5)).current == Streak(0, 0)
    assert streaks(plays, d + timedelta(5)).longest == Streak(2, 2)
    assert streaks([], d).current == Streak(0, 0)


@given(st.sets(st.integers(0, 40), max_size=25), st.data())
def test_streaks_stored_day_by_day_agree_with_streaks_from_history(day_numbers, data):
    assume(day_numbers)
    start = date(2026, 1, 1)
    plays = [(start + timedelta(n), data.draw(st.integers(0, 13))) for n in sorted(day_numbers)]
    stored: dict[date, Streak] = {}
    for day, score in plays:  # what the bot does as each play finishes: from the day before's row
        stored[day] = next_streak(stored.get(day - timedelta(1)), score >= 8)
    summary = streaks(plays, plays[-1][0])
    assert summary.current == stored[plays[-1][0]]
    assert summary.longest == Streak(max(s.played for s in stored.values()), max(s.won for s in stored.values()))


# ---------------------------------------------------------------- the board


def entry(user: int, score: int, seconds: float) -> DailyEntry:
    return DailyEntry(user, f"member {user}", score, seconds, tuple(ANSWER))


def test_the_board_ranks_by_score_then_time_and_equal_ones_share_a_rank():
    board = ranked([entry(1, 7, 30), entry(2, 13, 9.2), entry(3, 13, 9.9), entry(4, 12, 5), entry(5, 7, 80)])
    assert [(rank, e.user_id) for rank, e in board] == [(1, 2), (1, 3), (3, 4), (4, 1), (5, 5)]
