"""Octa benchmarks: table and hand render time and size, computer move time (at sample positions, and
every move of whole games), one turn-panel step."""

from __future__ import annotations

from bench import Row, game_move_times, measure, picture_rows
from engines.base import play_out
from engines.octa import ENGINE, choose_action
from render.octa import render_hand, render_table

NAMES = ["Alice", "Bob"]


def _mid_game(moves: int = 120, seed: int = 4):
    return play_out(ENGINE, choose_action, ENGINE.new_game(2, {}, seed), moves, seed=1)


def pictures() -> list[Row]:
    state = _mid_game()
    return [
        *picture_rows("octa table", lambda: render_table(state, NAMES), repeat=20),
        *picture_rows("octa hand", lambda: render_hand(state, NAMES, state.current), repeat=20),
    ]


def run() -> list[Row]:
    state = _mid_game()
    seat = state.current
    rows = [
        *pictures(),
        measure("octa legal_actions", lambda: ENGINE.legal_actions(state, seat), repeat=50),
    ]
    positions = [p for p in (_mid_game(moves, seed=7) for moves in (10, 40, 90)) if ENGINE.outcome(p) is None]
    for level in ("easy", "medium", "hard"):
        rows.append(measure(f"octa computer move ({level})", _cycle_moves(positions, level), repeat=15))
        rows.append(
            game_move_times(
                f"octa computer move ({level} against medium, whole games)",
                ENGINE,
                lambda state, seat, level=level: choose_action(
                    state, seat, level if seat == 0 else "medium", seed=state.seed
                ),
                [ENGINE.new_game(2, {}, seed) for seed in range(3)],
                target=1.0,
            )
        )
    rows.extend(_simcord_panel_step())
    return rows


async def _fresh_panel(world):
    """Untimed: stop the channel's game, start a new one (seed 8: Ada starts) and open her turn panel."""
    if await world.platform.store.live_session(world.channel.id):
        await world.ada.slash(world.channel, "stop")
    world.platform.new_seed = lambda: 8
    await world.ada.slash(world.channel, "octa challenge", opponent=world.bo)
    await world.bo.click(world.channel.last_message, label="Accept")
    opened = await world.ada.click(world.channel.last_message, label="Turn panel")
    return opened.followups[0]  # the panel follows the click's deferred update of the game message


async def _panel_step(world, panel) -> None:
    await world.ada.select(panel, ["pile0"])


def _simcord_panel_step() -> list[Row]:
    from bench.simcord_harness import time_interaction
    from bot.games.octa import OctaAdapter

    return time_interaction(
        "octa turn-panel step (Pile 1) through SimCord",
        _panel_step,
        _fresh_panel,
        games=[OctaAdapter],
        repeat=20,
        note="act, save, table render, message edit, menu edit",
    )


def _cycle_moves(positions: list, level: str):
    """A timing function that picks the next sample position each call."""
    calls = iter(range(10**9))

    def move() -> dict:
        state = positions[next(calls) % len(positions)]
        return choose_action(state, state.current, level, seed=1)

    return move
