"""The shipped puzzle sets and how puzzles are found, through the engines' public API.

Every shipped puzzle replays from its game's seed, options and record; its answer is a legal
move there, and the set holds no position twice. Searched again at its stored verification depths
(the answer beats every other move by the margin at each of them), an Octego puzzle takes about
0.05 s, an Octagone one far less: a seeded sample of :data:`DEEP_SAMPLE` puzzles per set is
searched again (the same sample every run; the generator verified every one the same way).
"""

from __future__ import annotations

import random
from datetime import date, timedelta

import pytest

from engines import puzzles
from engines.puzzles.rating import Rating, update
from engines.registry import engine

SETS = [game for game in puzzles.GAMES if puzzles.load(game)]
DEEP_SAMPLE = 80


def test_every_game_with_puzzles_ships_a_set():
    assert list(puzzles.GAMES) == SETS


@pytest.mark.parametrize("game", SETS)
def test_every_shipped_puzzle_replays_and_its_answer_is_a_legal_move(game):
    items = puzzles.load(game)
    ids = [item.id for item in items]
    assert len(set(ids)) == len(ids), "two puzzles of the set share a position"
    rules = engine(game)
    for item in items:
        state = item.state()
        assert not state.over
        legal = rules.legal_actions(state, item.seat)
        assert any(puzzles.is_answer(item, action) for action in legal), item.id
        assert sum(puzzles.is_answer(item, action) for action in legal) < len(legal) - 1  # other moves exist
        assert tuple(item.depths) == puzzles.VERIFY_DEPTHS
        assert min(item.margins) >= puzzles.MARGIN


@pytest.mark.parametrize("game", SETS)
def test_a_sample_of_every_set_is_unique_at_its_verification_depths(game):
    items = puzzles.load(game)
    for item in random.Random(f"deep-{game}").sample(items, min(DEEP_SAMPLE, len(items))):
        found = puzzles.verdict(game, item.state(), item.depths)
        assert found is not None, f"{item.id} is no longer a puzzle at depths {item.depths}"
        assert found[0] == item.answer


def test_one_winning_move_is_a_puzzle_and_two_are_none():
    # Seat 1's last Octego on c2 reaches row 1 next move unless taken: the 1 on d3 takes it and
    # wins; every other move loses. With a second 1 on b3 that can take it too, no move is the one.
    rules = engine("octego")
    single = rules.new_game(2, {"position": "1d3 Oa3 Oh4 / Oc2 1a8", "to_move": 0}, 1)
    found = puzzles.verdict("octego", single, puzzles.VERIFY_DEPTHS)
    assert found is not None
    assert found[0] == "d3xc2"
    double = rules.new_game(2, {"position": "1d3 1b3 Oa5 Oh4 / Oc2 1a8", "to_move": 0}, 1)
    assert puzzles.verdict("octego", double, puzzles.VERIFY_DEPTHS) is None


def test_a_generated_octego_game_is_the_hard_levels_game():
    # The generator's search remembers its leaf evaluations: the game must be move for move the
    # one choose_action plays (medium for the opening, then hard at the same node budget).
    from engines.octego import ENGINE, choose_action
    from engines.puzzles import octego

    nodes, seed = 800, 3
    state, played = ENGINE.new_game(2, {}, seed), []
    while not state.over:
        level = "medium" if state.ply < octego.OPENING_PLIES else "hard"
        chosen = choose_action(state, state.to_move, level, seed=seed, nodes=nodes)
        played.append((state.to_move, chosen))
        state = ENGINE.apply(state, state.to_move, chosen)
    positions = list(octego.game(seed, nodes))
    assert len(positions) == len(played) > octego.OPENING_PLIES
    assert positions[-1][1] == played[:-1]


def test_a_daily_puzzle_comes_back_only_after_every_other_one_even_across_cycles():
    for game in SETS:
        count = puzzles.repeat_days(game)
        assert count == len(puzzles.load(game))
        start = date(2026, 1, 1)
        days = [puzzles.daily(game, start + timedelta(days=n)).id for n in range(count + 400)]
        last_seen: dict[str, int] = {}
        for n, puzzle_id in enumerate(days):
            assert n - last_seen.get(puzzle_id, n - count) == count, f"{game}: {puzzle_id} back on day {n}"
            last_seen[puzzle_id] = n
        assert len(set(days)) == count  # every puzzle of the set is shown
        assert puzzles.daily(game, start) == puzzles.daily(game, start)


def test_a_solve_raises_the_rating_and_a_miss_lowers_it():
    start = Rating()
    assert update(start, 1500, solved=True).rating > 1500 > update(start, 1500, solved=False).rating
    assert update(start, 1500, solved=True).deviation < start.deviation
    # A solve of an easy puzzle gains less than one of a hard puzzle.
    assert update(start, 1100, solved=True).rating < update(start, 1900, solved=True).rating
