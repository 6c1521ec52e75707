"""Octego benchmarks: legal-move generation, computer move time per level (with the default budgets
and with the 0.2 s budget the tests pass), board render, and one `/octego move` through SimCord
(end to end, against the platform's no-op command).

Win rates of the hard level come from the slower ``python -m bench.octego_winrates``.
"""

from __future__ import annotations

import itertools
import random
import statistics

from bench import Row, measure, picture_rows, value
from engines.octego import ENGINE, legal_moves
from engines.octego.ai import choose_action
from render.octego import render_board

NAMES = ["Ada", "Grace"]
TEST_BUDGET = 0.2  # seconds: the time_budget tests/engines/test_octego_ai.py passes


def _cycle_moves(positions: list, level: str, budget: float):
    """A timing function that picks the next position each call."""
    turn = itertools.cycle(positions)

    def move() -> dict:
        state = next(turn)
        return choose_action(state, state.to_move, level, seed=1, time_budget=budget)

    return move


def _midgame(seed: int = 7, plies: int = 16):
    """A reproducible midgame: random legal moves, retried until the game is still running."""
    while True:
        rng = random.Random(seed)
        state = ENGINE.new_game(2, {}, seed)
        for _ in range(plies):
            if state.is_over:
                break
            state = ENGINE.apply(
                state, state.to_move, {"type": "move", "path": rng.choice(legal_moves(state, state.to_move))}
            )
        if not state.is_over:
            return state
        seed += 1


def _generation_rows(label: str, state) -> list[Row]:
    row = measure(
        f"octego legal moves ({label})", lambda: ENGINE.legal_actions(state, state.to_move), repeat=200, unit="us"
    )
    count = len(legal_moves(state, state.to_move))
    rate = count / statistics.median(row.samples)
    return [row, value(f"octego moves generated per second ({label})", rate, "moves/s", note=f"{count} moves listed")]


async def _fresh_game(world) -> None:
    """Untimed: stop the channel's game and start a new one (Ada, seat 0, to move)."""
    if await world.platform.store.live_session(world.channel.id):
        await world.ada.slash(world.channel, "stop")
    world.platform.new_seed = lambda: 7
    await world.ada.slash(world.channel, "octego challenge", opponent=world.bo)
    await world.bo.click(world.channel.last_message, label="Accept")


async def _move(world, _context) -> None:
    await world.ada.slash(world.channel, "octego move", path="c1-d2")


def _simcord_move() -> Row:
    from bench.simcord_harness import time_interaction
    from bot.games.octego import OctegoAdapter

    return time_interaction(
        "octego /octego move through SimCord",
        _move,
        _fresh_game,
        games=[OctegoAdapter],
        repeat=20,
        note="act, save, board render, message edit, private answer",
    )


def run() -> list[Row]:
    opening = ENGINE.new_game(2, {}, 7)
    middle = _midgame()
    rows = _generation_rows("opening", opening) + _generation_rows("midgame", middle)
    for level, repeat in (("easy", 30), ("medium", 10), ("hard", 5)):
        rows.append(
            measure(
                f"octego computer move ({level}, midgame)",
                lambda level=level: choose_action(middle, middle.to_move, level, seed=1),
                repeat=repeat,
                warmup=1,
                note="default budget 0.8 s (target < 1000 ms)" if level == "hard" else "",
            )
        )
        rows.append(
            measure(
                f"octego computer move ({level}, {TEST_BUDGET} s budget)",
                _cycle_moves([opening, middle], level, TEST_BUDGET),
                repeat=repeat,
                warmup=1,
                note=f"opening and midgame in turn (target < {(TEST_BUDGET + 0.3) * 1000:.0f} ms)",
            )
        )
    rows.extend(picture_rows("octego board (midgame)", lambda: render_board(middle, NAMES), repeat=15))
    rows.append(_simcord_move())
    return rows
