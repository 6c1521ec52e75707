"""Octagion's options as the lobby sends them: combined variations (decision of 2026-11-23),
the countdown's difficulty, Beta's Treatment Cards per team, and computer teams' timing."""

from __future__ import annotations

import itertools

import pytest

from engines.octagion import COUNTDOWN_CARDS, ENGINE, choose_action
from engines.octagion.ai import think_seconds
from engines.octagion.rules import VARIATIONS, normalise_variations


def test_every_allowed_combination_starts_and_the_refused_ones_say_why():
    started, refused = set(), []
    for size in range(len(VARIATIONS) + 1):
        for names in itertools.combinations(VARIATIONS, size):
            try:
                state = ENGINE.new_game(2, {"variation": " ".join(names)}, seed=3)
            except ValueError as error:
                refused.append((names, str(error)))
                continue
            started.add(tuple(state.options["variations"]))
    assert len(started) == 36  # {-, alpha, gamma} x beta x zeta x {-, delta, delta+epsilon}
    assert all({"alpha", "gamma"} <= set(names) for names, _ in refused)
    assert {reason for _, reason in refused} == {"Alpha and Gamma both set the clock: choose one of them"}


@pytest.mark.parametrize(
    ("typed", "rules"),
    [
        ("beta gamma", ["beta", "gamma"]),
        ("Alpha, Zeta", ["alpha", "zeta"]),
        ("beta+gamma and zeta", ["beta", "gamma", "zeta"]),
        ("epsilon", ["delta", "epsilon"]),
        ("virulent zeta", ["beta", "delta", "epsilon", "gamma", "zeta"]),
        ("none", []),
        ("", []),
    ],
)
def test_typed_variations_become_the_rules_they_switch_on(typed, rules):
    assert normalise_variations(typed) == rules


def test_an_unknown_variation_is_named():
    with pytest.raises(ValueError, match="unknown variation 'omega'"):
        normalise_variations("beta omega")


@pytest.mark.parametrize(("levels", "expected"), [("easy", {1, 2}), ("standard", {1, 2, 3}), ("hard", {2, 3})])
def test_the_countdown_difficulty_chooses_the_levels(levels, expected):
    state = ENGINE.new_game(1, {"variation": "gamma", "gamma_levels": levels}, seed=8)
    assert {COUNTDOWN_CARDS[index].level for index in state.countdown_stack} == expected


def test_beta_sets_treatment_cards_per_team_and_needs_beta():
    state = ENGINE.new_game(3, {"variation": ["beta"], "treatment_per_team": {0: 1, 2: 5}}, seed=2)
    assert state.treatments == [1, 3, 5]
    with pytest.raises(ValueError, match="Rule Beta"):
        ENGINE.new_game(2, {"treatment_per_team": {0: 1}}, seed=2)


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
@pytest.mark.parametrize("seconds", [45, 60, 120, 300])
def test_a_computer_answers_before_any_round_ends(level, seconds):
    assert 1 <= think_seconds(level, seconds) < seconds


def test_a_hard_computer_team_spells_its_word_then_calls_got_it():
    state = ENGINE.new_game(2, {}, seed=21)  # standard Word Cards: every word can be spelt
    first = choose_action(state, 1, "hard", seed=4)
    assert first["type"] == "set_variant"
    state = ENGINE.apply(state, 1, first)
    assert choose_action(state, 1, "hard", seed=4) == {"type": "got_it"}
    assert choose_action(state, 1, "medium", seed=4)["type"] == "set_variant"  # medium never risks it
