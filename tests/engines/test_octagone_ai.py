"""Octagone's computer opponent: always legal and better than random play (its move times: bench/bench_octagone.py)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engines.base import Outcome
from engines.octagone import ENGINE, JOKER, choose_action
from engines.octagone.ai import BOX_INDEX, KIND_NAMES, LEVELS, NO_BOX, Position, play_out
from engines.octagone.ai import JOKER_KIND as JOKER_KIND_INDEX
from engines.octagone.rules import SHIELD_KINDS, OctagoneState, Placement


def _random_move(state, seat, rng):
    return rng.choice([action for action in ENGINE.legal_actions(state, seat) if action["type"] != "resign"])


def _play(seed: int, players: int, computer_seats: set[int], level: str) -> Outcome | None:
    state = ENGINE.new_game(players, {}, seed)
    rng = random.Random(seed)
    while not state.over:
        seat = state.to_move
        if seat in computer_seats:
            action = choose_action(state, seat, level, seed)
            assert action in ENGINE.legal_actions(state, seat)
            assert action["type"] != "resign"
        else:
            action = _random_move(state, seat, rng)
        state = ENGINE.apply(state, seat, action)
    return ENGINE.outcome(state)


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_whole_legal_games(level):
    for seed in range(3):
        assert _play(seed, 2, {0, 1}, level) is not None


def test_four_player_games_are_legal():
    for seed in range(3):
        assert _play(seed, 4, {0, 1, 2, 3}, "hard") is not None


def test_medium_beats_random_play_in_most_games():
    wins = 0
    for seed in range(20):
        seat = seed % 2
        outcome = _play(seed, 2, {seat}, "medium")
        wins += outcome.ranks[seat] == 1 and not outcome.is_draw
    assert wins >= 14, f"medium won only {wins} of 20 games against random play"


def test_four_player_pair_beats_random_pair_in_most_games():
    wins = 0
    for seed in range(20):
        pair = {seed % 2, seed % 2 + 2}
        outcome = _play(seed, 4, pair, "medium")
        wins += outcome.ranks[min(pair)] == 1 and not outcome.is_draw
    assert wins >= 12, f"the computer pair won only {wins} of 20 games"


def test_computer_sends_the_opponent_to_a_colour_it_lacks():
    """Seat 0 plays on B4; seat 1 holds only sky and orange shields, no joker.

    Aiming at B5 (sky) lets seat 1 play; aiming at a green, yellow, blue or pink box forces it to skip.
    """
    state = _skip_position()
    action = choose_action(state, 0, "medium")
    after = ENGINE.apply(state, 0, action)
    assert after.target[0] not in "AB"  # a colour seat 1 lacks
    assert any(event.kind == "skip" and event.seat == 1 for event in after.events)
    assert after.to_move == 0 or ENGINE.outcome(after).winners == (0,)
    assert state.hands[1][JOKER] == 0


# --- the levels ------------------------------------------------------------------------------------


def _midgame(players: int, seed: int, moves: int, options: dict | None = None) -> OctagoneState:
    """A position after ``moves`` random actions (or the last one before the end)."""
    state = ENGINE.new_game(players, options or {}, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        after = ENGINE.apply(state, state.to_move, _random_move(state, state.to_move, rng))
        if after.over:
            break
        state = after
    return state


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("level", LEVELS)
def test_the_same_seed_gives_the_same_move(level, players):
    for seed in range(3):
        state = _midgame(players, seed, 12)
        first = choose_action(state, state.to_move, level, seed=seed)
        assert choose_action(state, state.to_move, level, seed=seed) == first
        assert first in ENGINE.legal_actions(state, state.to_move)


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_whole_legal_four_player_games(level):
    for seed in range(2):
        assert _play(seed, 4, {0, 1, 2, 3}, level) is not None


def test_the_compact_position_follows_the_rules():
    """The search's copy of a position offers the same placements as the engine, one per
    (shield, designated box), and reaches the same position after each of them."""
    for players, options, seed in [(2, {"level": "basic"}, 1), (2, {}, 2), (4, {}, 3), (4, {}, 4)]:
        state = ENGINE.new_game(players, options, seed)
        rng = random.Random(seed)
        state = ENGINE.apply(state, state.to_move, _random_move(state, state.to_move, rng))
        while not state.over:
            position = Position.from_state(state)
            engine_moves = {}
            for action in ENGINE.legal_actions(state, state.to_move):
                if action["type"] == "place":
                    after = ENGINE.apply(state, state.to_move, action)
                    engine_moves[(KIND_NAMES.index(action["shield"]), after.target)] = after
            compact_moves = {(kind, box): (kind, direction, box) for kind, direction, box in position.moves()}
            assert set(compact_moves) == {(kind, BOX_INDEX.get(target, NO_BOX)) for kind, target in engine_moves}
            for (kind, target), after in engine_moves.items():
                move = compact_moves[(kind, BOX_INDEX.get(target, NO_BOX))]
                saved = position.play(move)
                assert position.over == after.over
                assert position.occupied == Position.from_state(after).occupied
                if not after.over:
                    assert (position.to_move, position.target) == (after.to_move, BOX_INDEX[after.target])
                position.undo(move, saved)
            assert position.key() == Position.from_state(state).key()
            state = ENGINE.apply(state, state.to_move, _random_move(state, state.to_move, rng))


def _skip_position() -> OctagoneState:
    """Seat 0 to play on B4; seat 1 holds only sky and orange shields and no joker, so aiming at
    any box of another colour makes it skip (see the test above)."""
    state = ENGINE.new_game(2, {"level": "advanced"}, seed=4)
    hands = [dict.fromkeys(SHIELD_KINDS, 0), dict.fromkeys(SHIELD_KINDS, 0)]
    hands[0].update(sky=3, green=3)
    hands[1].update(sky=3, orange=3)
    board = {
        box: Placement("orange", "S", 1, n + 1)
        for n, box in enumerate(
            ["A1", "A2", "A3", "A4", "A5", "A6", "A7", "B1", "B2", "B3", "C1", "C2", "C3", "D1", "D2", "D3", "D4"]
        )
    }
    return replace(state, board=board, target="B4", hands=hands, to_move=0, last_box="A4", ply=len(board))


def _makes_seat_1_skip(state: OctagoneState, action) -> bool:
    return any(event.kind == "skip" and event.seat == 1 for event in ENGINE.apply(state, 0, action).events)


def test_easy_prefers_better_moves():
    state = _skip_position()
    actions = [action for action in ENGINE.legal_actions(state, 0) if action["type"] != "resign"]
    uniform_share = sum(_makes_seat_1_skip(state, action) for action in actions) / len(actions)
    choices = [choose_action(state, 0, "easy", seed) for seed in range(40)]
    easy_share = sum(_makes_seat_1_skip(state, action) for action in choices) / len(choices)
    assert easy_share > uniform_share + 0.1


@pytest.mark.parametrize("players", [2, 4])
def test_easy_does_not_always_play_the_best_move(players):
    """Where moves are close, easy's choice varies with the seed and sometimes differs from medium's."""
    state = _midgame(players, 5, 8)
    seat = state.to_move
    easy = [choose_action(state, seat, "easy", seed) for seed in range(20)]
    medium = choose_action(state, seat, "medium", 0)
    assert len({tuple(sorted(action.items())) for action in easy}) > 1
    assert any(action != medium for action in easy)


def test_medium_and_hard_make_the_opponent_skip():
    state = _skip_position()
    for level in ("medium", "hard"):
        assert _makes_seat_1_skip(state, choose_action(state, 0, level, seed=3))


def test_hard_plays_differently_from_medium_with_four_players():
    differences = 0
    for seed in range(6):
        state = _midgame(4, seed, 14)
        seat = state.to_move
        differences += choose_action(state, seat, "hard", seed) != choose_action(state, seat, "medium", seed)
    assert differences >= 1


def test_four_player_choices_depend_only_on_what_the_seat_may_see():
    """Moving a coloured shield between two hidden hands (their sizes stay public) changes nothing."""
    for seed in range(4):
        state = _midgame(4, seed, 10)
        seat = state.to_move
        giver, taker = (seat + 1) % 4, (seat + 2) % 4
        colour = next((c for c in SHIELD_KINDS if c != JOKER and state.hands[giver][c]), None)
        other = next((c for c in SHIELD_KINDS if c not in (JOKER, colour) and state.hands[taker][c]), None)
        if colour is None or other is None:
            continue
        swapped = state.copy()
        swapped.hands[giver][colour] -= 1
        swapped.hands[giver][other] += 1
        swapped.hands[taker][other] -= 1
        swapped.hands[taker][colour] += 1
        for level in LEVELS:
            assert choose_action(swapped, seat, level, seed) == choose_action(state, seat, level, seed)


def test_played_out_games_follow_the_rules_and_the_policy():
    """``play_out`` (hard's played-out games, on local copies) places only what the compact
    position offers, always in the policy's best tier (the next seat skips, then a coloured
    shield before a joker), and ends with the shields the position itself would have left."""
    for players, options, seed in [(2, {"level": "basic"}, 1), (2, {}, 2), (4, {}, 3), (4, {}, 4)]:
        for moves in (1, 6, 14):
            state = _midgame(players, seed, moves, options)
            if state.opening:
                state = ENGINE.apply(state, state.to_move, _random_move(state, state.to_move, random.Random(seed)))
            position = Position.from_state(state)
            before = position.key()
            trace = []
            left = play_out(position, random.Random(seed), trace)
            assert position.key() == before  # played on a copy
            assert trace
            for kind, box in trace:
                assert not position.over
                offered = {(k, b): (k, d, b) for k, d, b in position.moves()}
                after = position.hands[(position.to_move + 1) % players]

                def tier(kind_box, after=after):
                    k, b = kind_box
                    skips = b != NO_BOX and not after[JOKER_KIND_INDEX] and not after[b // 7]
                    return 2 * skips + (k != JOKER_KIND_INDEX)

                assert (kind, box) in offered
                assert tier((kind, box)) == max(map(tier, offered))
                position.play(offered[(kind, box)])
            assert position.over
            assert left == position.left


def test_medium_beats_the_one_move_greedy_player():
    """Medium looks further than greedy (the plain evaluation one ply ahead), and it shows, sides swapped per deal."""
    wins = 0
    for game in range(16):
        state = ENGINE.new_game(2, {}, 900 + game // 2)
        medium = (state.starter + game) % 2
        while not state.over:
            seat = state.to_move
            level = "medium" if seat == medium else "greedy"
            state = ENGINE.apply(state, seat, choose_action(state, seat, level, seed=game))
        wins += medium in state.outcome.winners and not state.outcome.is_draw
    assert wins >= 10, f"medium won only {wins} of 16 games against greedy"
