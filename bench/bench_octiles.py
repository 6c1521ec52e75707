"""Octiles Scavenger Hunt benchmarks: board render (time, bytes), legal actions, computer moves
(at one midgame, and every move of a game's first 40 actions), and one `/octiles move` through SimCord."""

from __future__ import annotations

from bench import Row, game_move_times, measure, picture_rows
from engines.octiles import ENGINE, choose_action, legal_destinations, turn_actions
from render.octiles import render_board

NAMES = ["Ada", "Grace"]


def _midgame(seed: int = 7, actions: int = 24):
    """A reproducible midgame reached by medium computer players, stopped at a turn."""
    state = ENGINE.new_game(2, {"scramble": True}, seed)
    while actions > 0 or state.phase != "turn":
        seat = ENGINE.to_act(state)[0]
        state = ENGINE.apply(state, seat, choose_action(state, seat, "medium", seed=seed))
        actions -= 1
    return state


async def _midgame_in_channel(world):
    """Untimed: a fresh game in the channel, set to the midgame; the actor on turn and a move."""
    if await world.platform.store.live_session(world.channel.id):
        await world.ada.slash(world.channel, "stop")
    await world.ada.slash(world.channel, "octiles challenge", opponent=world.bo)
    await world.bo.click(world.channel.last_message, label="Accept")
    state = _midgame()
    await world.set_state((await world.session()).id, state)
    seat = ENGINE.to_act(state)[0]
    move = next(a for a in ENGINE.legal_actions(state, seat) if a["type"] == "move")
    route = f" via {move['via']}" if "via" in move else ""  # a move with one route names none
    return (world.ada, world.bo)[seat], move["to"] + route


async def _move(world, context) -> None:
    actor, to = context
    await actor.slash(world.channel, "octiles move", to=to)


def _simcord_move() -> list[Row]:
    from bench.simcord_harness import time_interaction
    from bot.games.octiles import OctilesAdapter

    return time_interaction(
        "octiles /octiles move through SimCord",
        _move,
        _midgame_in_channel,
        games=[OctilesAdapter],
        repeat=20,
        note="act, save, board render, message edit, private answer",
    )


def pictures() -> list[Row]:
    """The board at the set-up, at the midgame of the other rows, and late in the game."""
    set_up, middle, late = ENGINE.new_game(2, {"scramble": True}, 7), _midgame(), _midgame(actions=60)
    rows = picture_rows("octiles board (set-up)", lambda: render_board(set_up, NAMES), repeat=10)
    rows += picture_rows("octiles board (midgame)", lambda: render_board(middle, NAMES), repeat=10)
    rows += picture_rows("octiles board (late)", lambda: render_board(late, NAMES), repeat=10)
    return rows


def run() -> list[Row]:
    state = _midgame()
    seat = ENGINE.to_act(state)[0]
    count = len(turn_actions(state, seat))
    rows = [
        measure(
            "octiles legal actions (midgame turn)",
            lambda: ENGINE.legal_actions(state, seat),
            repeat=30,
            note=f"{count} actions: options 1, 2 and 3",
        ),
        measure("octiles option-2 destinations", lambda: legal_destinations(state, seat), repeat=200, unit="us"),
    ]
    for level, repeat in (("easy", 20), ("medium", 10), ("hard", 5)):
        rows.append(
            measure(
                f"octiles computer move ({level}, midgame)",
                lambda level=level: choose_action(state, seat, level, seed=1),
                repeat=repeat,
                warmup=1,
            )
        )
        rows.append(
            game_move_times(
                f"octiles computer move ({level}, first 40 actions of a scrambled game)",
                ENGINE,
                lambda state, seat, level=level: choose_action(state, seat, level, seed=3),
                [ENGINE.new_game(2, {"scramble": True}, 21)],
                moves=40,
                target=1.0,
            )
        )
    rows.extend(pictures())
    rows.extend(_simcord_move())
    return rows
