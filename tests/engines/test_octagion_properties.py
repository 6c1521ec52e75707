"""Octagion property tests: random games of random actions keep the invariants; the AI plays legally."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.base import IllegalAction
from engines.octagion import ENGINE, TREATMENT, choose_action
from engines.octagion.ai import think_seconds
from engines.octagion.cards import DECK
from engines.octagion.rules import score_variant, sequence_for

cells = st.one_of(st.none(), st.just(TREATMENT), st.sampled_from(DECK), st.just("Q9"))
actions = st.one_of(
    st.builds(lambda cards: {"type": "set_variant", "cards": cards}, st.lists(cells, max_size=9)),
    st.builds(lambda position, card: {"type": "place", "position": position, "card": card}, st.integers(0, 9), cells),
    st.just({"type": "got_it"}),
    st.just({"type": "end_round", "reason": "timer"}),
    st.just({"type": "next_round"}),
    st.just({"type": "resign"}),
)
options = st.fixed_dictionaries(
    {
        "variation": st.sampled_from(["none", "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "virulent"]),
        "rounds": st.integers(1, 4),
        "party": st.booleans(),
        "treatment": st.integers(0, 5),
    }
)


def as_json(state):
    return json.dumps(ENGINE.dump(state), sort_keys=True)


def check_invariants(state):
    assert as_json(ENGINE.load(json.loads(as_json(state)))) == as_json(state)
    assert all(count >= 0 for count in state.treatments)
    for team in range(state.team_count):
        assert state.totals[team] == sum(record["scores"][team] for record in state.history)
        cards = [cell for cell in state.variants[team] if cell not in (None, TREATMENT)]
        assert len(cards) == len(set(cards))
        assert set(cards) <= set(DECK)
        assert len(state.variants[team]) == 8
    assert state.phase in ("playing", "between")  # the end is the outcome, not a phase
    # A round is scored once it is "between" (the last one too); a game whose players left may end mid-round.
    assert len(state.history) == state.round - (1 if state.phase == "playing" else 0)
    outcome = ENGINE.outcome(state)
    assert outcome is state.outcome
    assert (outcome is None) == bool(ENGINE.to_act(state))
    if outcome is not None:
        assert outcome.reason in ("all rounds played", "everyone left", "the other teams left")
        assert (outcome.reason == "all rounds played") == (len(state.history) == state.options["rounds"])
        assert outcome.teams == tuple(state.teams)
        assert state.events[-1].kind == "end"
    if state.phase == "playing" and len(set(state.words)) > 1:
        assert len(set(state.words)) == state.team_count


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(1, 5),
    teams_seed=st.integers(0, 3),
    opts=options,
    seed=st.integers(0, 10_000),
    moves=st.lists(st.tuples(st.integers(-1, 5), actions), max_size=40),
)
def test_random_actions_keep_the_invariants(players, teams_seed, opts, seed, moves):
    teams = [(seat * teams_seed) % max(1, players - 1) for seat in range(players)] if teams_seed else None
    state = ENGINE.new_game(players, {**opts, "teams": teams}, seed)
    for seat, action in moves:
        before, ply = as_json(state), state.ply
        refusal: IllegalAction | None = None
        try:
            state = ENGINE.apply(state, seat, action)
        except IllegalAction as error:
            refusal = error
        if refusal is not None:  # a refused action is explained and changes nothing
            assert str(refusal)
            assert as_json(state) == before
        else:  # an accepted one is counted and told in events, a variant without its cards
            assert state.ply == ply + 1
            assert state.events
            assert all(event.ply == state.ply for event in state.events)
            assert all(set(event.data) == {"team"} for event in state.events if event.kind == "variant")
        check_invariants(state)
        for who in ENGINE.to_act(state):
            for legal in ENGINE.legal_actions(state, who):
                ENGINE.apply(state, who, legal)  # every listed action is accepted


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(1, 4),
    opts=options,
    seed=st.integers(0, 10_000),
    level=st.sampled_from(["easy", "medium", "hard"]),
)
def test_the_computer_player_always_chooses_an_accepted_action(players, opts, seed, level):
    teams = [0] * players if opts["party"] else None
    state = ENGINE.new_game(players, {**opts, "teams": teams}, seed)
    for step in range(60):
        if state.over:
            break
        seat = step % players
        if state.phase == "playing" and step % 7 == 6:
            state = ENGINE.apply(state, seat, {"type": "end_round", "reason": "timer"})
            continue
        state = ENGINE.apply(state, seat, choose_action(state, seat, level, seed))
        check_invariants(state)  # in party mode apply itself rejects another member's numbers


def test_hard_computer_builds_a_perfect_variant_then_calls_got_it():
    state = ENGINE.new_game(1, {}, 3)
    first = choose_action(state, 0, "hard")
    assert first["type"] == "set_variant"
    state = ENGINE.apply(state, 0, first)
    assert score_variant(state.variants[0], sequence_for(state, 0))["penalties"] == 0
    assert choose_action(state, 0, "hard") == {"type": "got_it"}
    state = ENGINE.apply(state, 0, {"type": "got_it"})
    assert state.history[-1]["scores"] == [10]
    assert choose_action(state, 0, "hard") == {"type": "next_round"}


def test_party_computers_together_complete_the_variant():
    state = ENGINE.new_game(3, {"teams": [0, 0, 0], "party": True}, 8)
    for seat in range(3):
        state = ENGINE.apply(state, seat, choose_action(state, seat, "medium"))
    assert score_variant(state.variants[0], sequence_for(state, 0))["penalties"] == 0


def test_easy_computer_makes_slips_and_thinks_longer():
    state = ENGINE.new_game(1, {}, 3)
    state = ENGINE.apply(state, 0, choose_action(state, 0, "easy", seed=1))
    assert score_variant(state.variants[0], sequence_for(state, 0))["penalties"] >= 1
    assert think_seconds("easy") > think_seconds("medium") > think_seconds("hard")
