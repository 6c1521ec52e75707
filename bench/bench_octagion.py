"""Octagion benchmarks: picture render time and bytes against an equal-size blank PNG; word-list check time;
one `/octagion play` through SimCord."""

from __future__ import annotations

import time

from bench import Row, measure, picture_rows, value
from engines.octagion import (
    ENGINE,
    choose_action,
    clear_solver_cache,
    solution,
    solution_count,
    word_list,
    word_solutions,
)
from render.octagion import render_deck, render_round, render_round_result, render_scoresheet, render_variant

NAMES = [f"Player {seat + 1}" for seat in range(8)]


def _midround(players: int = 4, seed: int = 7):
    """Virulent, two per team; every team has placed its computer's variant."""
    state = ENGINE.new_game(players, {"variation": "virulent", "teams": [seat // 2 for seat in range(players)]}, seed)
    for seat in range(0, players, 2):
        state = ENGINE.apply(state, seat, choose_action(state, seat, "easy", seed))
    return state


def finished_game(players: int = 4, seed: int = 7):
    """A finished game: even seats place a perfect variant each round, odd seats six cards."""
    state = ENGINE.new_game(players, {}, seed)
    while not state.over:
        for seat in range(players):
            cards = solution(state.words[0]) if seat % 2 == 0 else solution(state.words[0])[:6]
            state = ENGINE.apply(state, seat, {"type": "set_variant", "cards": cards})
        state = ENGINE.apply(state, 0, {"type": "end_round", "reason": "timer"})
        if not state.over:
            state = ENGINE.apply(state, 0, {"type": "next_round"})
    return state


def _load_word_list() -> int:
    word_solutions.cache_clear()
    return len(word_solutions())


def _check_word_list() -> int:
    clear_solver_cache()  # time a cold check, not cached answers
    return sum(solution_count(word) > 0 for word in word_list())


def pictures() -> list[Row]:
    playing = _midround()
    ended = ENGINE.apply(playing, 1, {"type": "end_round", "reason": "timer"})
    finished = finished_game()
    rows: list[Row] = []
    rows += picture_rows("octagion round", lambda: render_round(playing, NAMES, None))
    rows += picture_rows("octagion deck", lambda: render_deck(playing, NAMES, 0))
    rows += picture_rows("octagion variant", lambda: render_variant(playing, NAMES, 0))
    rows += picture_rows("octagion round result", lambda: render_round_result(ended, NAMES))
    rows += picture_rows("octagion score sheet", lambda: render_scoresheet(finished, NAMES))
    return rows


def run() -> list[Row]:
    playing = _midround()
    rows = pictures()
    rows.append(
        measure(
            "octagion load the word list with its solution counts (cold)",
            _load_word_list,
            repeat=20,
            warmup=1,
            note="what a process does before its first Octagion game (counted when the list is generated)",
        )
    )
    rows.append(
        measure(
            "octagion check word list (conformance + solution count, cold)",
            _check_word_list,
            repeat=5,
            warmup=1,
            note=f"{len(word_list())} words",
        )
    )
    start = time.perf_counter()
    conforming = _check_word_list()
    rows.append(
        value(
            "octagion conforming words",
            conforming,
            "words",
            note=f"of {len(word_list())}, checked in {(time.perf_counter() - start) * 1000:.0f} ms",
        )
    )
    rows.append(measure("octagion computer move (hard)", lambda: choose_action(playing, 1, "hard"), repeat=20))
    rows.extend(_simcord_play())
    return rows


async def _round_running(world):
    """Untimed: a practice game whose first round runs (virtual time stands still), and what to type."""
    session = await world.platform.sessions.live_in_channel(world.channel.id)
    if session is None:
        world.platform.new_seed = lambda: 1234
        await world.ada.slash(world.channel, "octagion start")
        await world.ada.click(world.channel.last_message, label="Start")
        session = await world.platform.sessions.live_in_channel(world.channel.id)
    cards = solution(session.state.words[0])
    shift = len(session.state.history) + await world.platform.store.count_actions(session.id)
    return " ".join(cards[: 1 + shift % 8])  # a different variant each time


async def _play(world, cards: str) -> None:
    await world.ada.slash(world.channel, "octagion play", cards=cards)


def _simcord_play() -> list[Row]:
    from bench.simcord_harness import time_interaction
    from bot.games.octagion import OctagionAdapter

    return time_interaction(
        "octagion /octagion play through SimCord",
        _play,
        _round_running,
        games=[OctagionAdapter],
        repeat=20,
        note="parse+act, save, variant render (a variant is private: no public redraw)",
    )
