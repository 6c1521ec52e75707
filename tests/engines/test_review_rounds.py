"""Octagion's review by rounds (issue #40): for each round, the solver's best answer against the
member's team's and the points each scored or would have scored."""

from __future__ import annotations

from engines.octagion import ENGINE, solution
from engines.review import Played, RoundsReview, from_json, kind, review_rounds


def race(rounds: int = 3, seed: int = 7):
    """Two players: Ada places a right answer and calls "Got it!" in round 1, then six right cards
    each round; Bo places nothing."""
    options = {"rounds": rounds}
    state = ENGINE.new_game(2, options, seed)
    actions = []

    def act(seat, action):
        nonlocal state
        actions.append((seat, action))
        state = ENGINE.apply(state, seat, action)

    while not state.over:
        cards = solution(state.words[0])
        if state.round == 1:
            act(0, {"type": "set_variant", "cards": cards})
            act(0, {"type": "got_it", "round": 1})
        else:
            act(0, {"type": "set_variant", "cards": [*cards[:6], None, None]})
            act(0, {"type": "end_round", "reason": "timer", "round": state.round})
        if not state.over:
            act(0, {"type": "next_round"})
    return options, seed, actions, state


def test_each_round_shows_the_solver_s_best_against_the_answer():
    options, seed, actions, state = race()
    assert kind("octagion") == "rounds"
    review = review_rounds(Played("octagion", 2, options, seed, tuple(actions)), seat=0)
    assert [entry["round"] for entry in review.rounds] == [1, 2, 3]
    first, second, _ = review.rounds
    assert first["points"] == first["best_points"] == 10, "right and called: 8 + 2, as the solver would"
    assert second["word"] == state.history[1]["words"][0]
    assert second["answer"][6:] == [None, None]
    assert second["points"] == 6, "two empty places: 8 - 2"
    assert second["best_points"] == 10
    assert None not in second["best"]
    assert [card[0] for card in second["best"]] == list(second["word"]), "the solver's cards spell the word"
    assert review.points() == 22
    assert review.best_points() == 30
    assert review.at_best() == 1


def test_the_other_team_is_reviewed_on_its_own_answers():
    options, seed, actions, _ = race()
    review = review_rounds(Played("octagion", 2, options, seed, tuple(actions)), seat=1)
    assert [entry["points"] for entry in review.rounds] == [0, 0, 0], "eight empty places: 8 - 8"
    assert review.best_points() == 30


def test_a_rounds_review_reads_back_identical():
    options, seed, actions, _ = race(rounds=2)
    review = review_rounds(Played("octagion", 2, options, seed, tuple(actions)), seat=0)
    again = from_json(review.to_json())
    assert isinstance(again, RoundsReview)
    assert again == review
