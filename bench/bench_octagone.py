"""Octagone benchmarks: board and hand render time and size, computer move time per level
(at one midgame, and every move of whole two-player games)."""

from __future__ import annotations

from bench import Row, game_move_times, measure, picture_rows
from engines.base import play_out
from engines.octagone import ENGINE, choose_action
from render.octagone import render_board, render_hand

NAMES = ["Ana", "Bo", "Cy", "Di"]


async def _fresh_game(world):
    """Untimed: stop the channel's game, start a new two-player one; returns the starter's member."""
    if await world.platform.store.live_session(world.channel.id):
        await world.ada.slash(world.channel, "stop")
    world.platform.new_seed = lambda: 11
    await world.ada.slash(world.channel, "octagone challenge", opponent=world.bo)
    await world.bo.click(world.channel.last_message, label="Accept")
    record = await world.platform.store.live_session(world.channel.id)
    session = await world.platform.sessions.load(record.id)
    return world.ada if session.players[session.state.to_move] == world.ada.id else world.bo


async def _place_opening(world, starter) -> None:
    await starter.slash(world.channel, "octagone place", box="C4", direction="NE")


def _simcord_place() -> list[Row]:
    from bench.simcord_harness import time_interaction
    from bot.games.octagone import OctagoneAdapter

    return time_interaction(
        "octagone /octagone place through SimCord",
        _place_opening,
        _fresh_game,
        games=[OctagoneAdapter],
        repeat=20,
        note="White Lady opening: act, save, board render, message edit",
    )


def _midgame(players: int, moves: int, seed: int = 7, **options):
    return play_out(ENGINE, choose_action, ENGINE.new_game(players, options, seed), moves, seed=seed)


def pictures() -> list[Row]:
    two = _midgame(2, 16)
    four = _midgame(4, 16, open_hands=True)
    return [
        *picture_rows("octagone board (2p, mid-game)", lambda: render_board(two, NAMES[:2]), repeat=15),
        *picture_rows("octagone board (4p, open hands)", lambda: render_board(four, NAMES), repeat=15),
        *picture_rows("octagone private hand", lambda: render_hand(two, NAMES[:2], two.to_move), repeat=15),
    ]


def run() -> list[Row]:
    two = _midgame(2, 16)
    four = _midgame(4, 16, open_hands=True)
    rows = pictures()
    for level in ("easy", "medium", "hard"):
        rows.append(
            measure(
                f"octagone computer move ({level}, 2p)",
                lambda level=level: choose_action(two, two.to_move, level),
                repeat=20,
            )
        )
        rows.append(
            game_move_times(
                f"octagone computer move ({level}, 2p, whole games)",
                ENGINE,
                lambda state, seat, level=level: choose_action(state, seat, level, state.seed),
                [ENGINE.new_game(2, {}, seed) for seed in range(3)],
                target=0.5,
            )
        )
    opening = ENGINE.new_game(2, {}, 7)
    rows.append(
        measure(
            "octagone computer opening (medium, White Lady)",
            lambda: choose_action(opening, opening.to_move, "medium"),
            repeat=5,
        )
    )
    rows.append(
        measure("octagone computer move (hard, 4p)", lambda: choose_action(four, four.to_move, "hard"), repeat=20)
    )
    rows.append(
        measure("octagone legal_actions (opening)", lambda: ENGINE.legal_actions(opening, opening.to_move), repeat=20)
    )
    rows.extend(_simcord_place())
    return rows
