"""Reviews of finished games (issue #40): each move judged against the hard search's best move,
marked by the drop in the mover's expected result."""

from __future__ import annotations

import pytest

from engines.registry import engine
from engines.review import MARKS, Played, Review, expected, review_game

THROWN_AWAY = {"position": "Od7 1a1 / Oe2 1h8"}  # Ada's Octego wins on row 8; Bo's wins on row 1


def replayed(options, moves):
    actions = [(seat, {"type": "move", "path": path}) for seat, path in moves]
    state = engine("octego").replay(2, options, 1, actions)
    return actions, state


def test_a_move_that_throws_away_a_win_is_a_blunder_and_the_winning_move_is_shown():
    actions, state = replayed(THROWN_AWAY, [(0, "a1-b2"), (1, "e2-d1")])
    assert state.outcome.winners == (1,)
    review = review_game(Played("octego", 2, THROWN_AWAY, 1, tuple(actions)), seat=0, nodes=500)
    first = review.own()[0]
    assert first.mark == "blunder"
    assert first.best in ("d7-e8", "d7-c8"), "the winning move: the Octego to row 8"
    assert first.before == 1.0
    assert first.after == 0.0
    assert first.facts["allows_win"]
    assert first.facts["best_wins"]
    assert review.counts() == {"best": 0, "good": 0, "inaccuracy": 0, "mistake": 0, "blunder": 1}
    assert review.worst() == [first]
    assert review.advantage() == [0.5, 0.0, 0.0]


def test_the_winning_move_itself_is_best():
    actions, _ = replayed(THROWN_AWAY, [(0, "d7-e8")])
    review = review_game(Played("octego", 2, THROWN_AWAY, 1, tuple(actions)), seat=0, nodes=500)
    assert [move.mark for move in review.own()] == ["best"]
    assert review.accuracy() == pytest.approx(100.0, abs=0.01)


def test_a_forced_move_is_never_marked():
    options = {"position": "Oa1 / Oh8 1g7"}  # Ada's lone Octego has one square to go to
    actions, _ = replayed(options, [(0, "a1-b2"), (1, "g7-f6")])
    review = review_game(Played("octego", 2, options, 1, tuple(actions)), seat=0, nodes=500)
    forced = review.own()[0]
    assert forced.mark is None
    assert review.counts() == dict.fromkeys(MARKS, 0)
    assert review.worst() == []
    assert review.accuracy() is None


def test_a_review_reads_back_identical():
    actions, _ = replayed(THROWN_AWAY, [(0, "a1-b2"), (1, "e2-d1")])
    review = review_game(Played("octego", 2, THROWN_AWAY, 1, tuple(actions)), seat=1, nodes=500)
    assert Review.from_json(review.to_json()) == review
    assert review.own()[0].mark == "best"


def test_the_curve_rises_and_is_exact_on_forced_results():
    assert expected("octego", 0) == 0.5
    assert expected("octego", -300) < 0.5 < expected("octego", 300)
    assert expected("octego", 100_000 - 3) == 1.0
    assert expected("octego", -100_000 + 3) == 0.0


def test_the_game_turns_at_the_biggest_mistake():
    actions, _ = replayed(THROWN_AWAY, [(0, "a1-b2"), (1, "e2-d1")])
    review = review_game(Played("octego", 2, THROWN_AWAY, 1, tuple(actions)), seat=1, nodes=500)
    assert review.turning_point() == 1, "Ada's blunder turned Bo's game"
    assert review.advantage() == [0.5, 1.0, 1.0]
