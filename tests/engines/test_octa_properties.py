"""Property tests: random legal Octa games keep every invariant."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.octa import ENGINE
from engines.octa.ai import LEVELS, choose_action
from engines.octa.cards import FULL_DECK
from engines.octa.rules import CENTRE, HAND_SIZE, OCTA_REASON, all_cards, has_won, table_count

MOVE_LIMIT = 3000  # random games end by the stock running out twice long before this


def _check_invariants(state) -> None:
    assert all_cards(state) == FULL_DECK, "a card was lost or duplicated"
    assert ENGINE.load(json.loads(json.dumps(ENGINE.dump(state)))) == state
    assert len(state.pool) == 8
    for seat, token in enumerate(state.tokens):
        if token.startswith("run:"):
            assert int(token[4:]) < len(state.runs[seat])
        else:
            assert token == CENTRE or token[5:] in ("top", "bottom", "left", "right")
    if state.step == "place_action":
        assert state.revealed is not None
        assert len(state.hands[1 - state.current]) <= HAND_SIZE  # the hand limit held at turn end


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**9), chooser=st.integers(0, 10**9))
def test_random_games_keep_all_cards_and_end(seed, chooser):
    rng = random.Random(chooser)
    state = ENGINE.new_game(2, {}, seed)
    moves = 0
    while ENGINE.outcome(state) is None:
        assert moves < MOVE_LIMIT, "the game did not end"
        seat = state.current
        assert ENGINE.to_act(state) == [seat]
        actions = [a for a in ENGINE.legal_actions(state, seat) if a["type"] != "resign"]
        assert actions, f"stuck at step {state.step}"
        if moves % 10 == 0:  # every listed action is accepted (sampled to keep the test fast)
            for action in actions:
                ENGINE.apply(state, seat, action)
        previous_turn = state.turn
        state = ENGINE.apply(state, seat, rng.choice(actions))
        assert state.turn in (previous_turn, previous_turn + 1)
        assert state.ply == moves + 1
        assert state.events
        assert all(event.ply == state.ply for event in state.events)
        _check_invariants(state)
        moves += 1
    result = ENGINE.outcome(state)
    assert ENGINE.to_act(state) == []
    if result.reason == OCTA_REASON:
        assert has_won(state, result.winners[0])
    else:
        counts = [table_count(state, s) for s in (0, 1)]
        assert result.scores == tuple(float(c) for c in counts)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**9), level=st.sampled_from(LEVELS))
def test_computer_players_make_legal_moves_and_finish(seed, level):
    """Their move times are in bench/bench_octa.py."""
    state = ENGINE.new_game(2, {}, seed)
    moves = 0
    while ENGINE.outcome(state) is None:
        assert moves < MOVE_LIMIT
        seat = state.current
        action = choose_action(state, seat, level if seat == 0 else "medium", seed=seed)
        assert action in ENGINE.legal_actions(state, seat)
        state = ENGINE.apply(state, seat, action)
        moves += 1
    assert all_cards(state) == FULL_DECK


def test_medium_beats_easy_most_of_the_time():
    wins = 0
    for seed in range(6):
        state = ENGINE.new_game(2, {}, seed)
        while ENGINE.outcome(state) is None:
            seat = state.current
            state = ENGINE.apply(state, seat, choose_action(state, seat, "medium" if seat == 0 else "easy", seed))
        wins += ENGINE.outcome(state).winners == (0,)
    assert wins >= 5
