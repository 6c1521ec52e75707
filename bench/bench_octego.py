"""Octego benchmarks: legal-move generation, computer move time per level (with the default node
budgets and with the small budget the tests pass), board render, and one `/octego move` through
SimCord (end to end, against the platform's no-op command).

Win rates of the hard level come from the slower ``python -m bench.octego_winrates``.
"""

from __future__ import annotations

import itertools
import random
import statistics

from bench import Row, measure, picture_rows, value
from engines.octego import ENGINE, NODE_BUDGET, choose_action, legal_moves
from render.octego import render_board

NAMES = ["Ada", "Grace"]
TEST_NODES = 3000  # the node budget tests/engines/test_octego_ai.py passes


def _cycle_moves(positions: list, level: str, nodes: int):
    """A timing function that picks the next position each call."""
    turn = itertools.cycle(positions)

    def move() -> dict:
        state = next(turn)
        return choose_action(state, state.to_move, level, seed=1, nodes=nodes)

    return move


def _midgame(seed: int = 7, plies: int = 16):
    """A reproducible midgame: random legal moves, retried until the game is still running."""
    while True:
        rng = random.Random(seed)
        state = ENGINE.new_game(2, {}, seed)
        for _ in range(plies):
            if state.over:
                break
            state = ENGINE.apply(
                state, state.to_move, {"type": "move", "path": rng.choice(legal_moves(state, state.to_move))}
            )
        if not state.over:
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


def _simcord_move() -> list[Row]:
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


def pictures() -> list[Row]:
    middle = _midgame()
    return picture_rows("octego board (midgame)", lambda: render_board(middle, NAMES), repeat=15)


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
                note=f"default budget {NODE_BUDGET['hard']:,} nodes (target < 1000 ms)" if level == "hard" else "",
            )
        )
        rows.append(
            measure(
                f"octego computer move ({level}, {TEST_NODES} nodes)",
                _cycle_moves([opening, middle], level, TEST_NODES),
                repeat=repeat,
                warmup=1,
                note="opening and midgame in turn (the tests' budget; target < 300 ms)",
            )
        )
    rows.extend(pictures())
    rows.extend(_simcord_move())
    return rows
