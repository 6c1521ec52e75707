"""The load benchmark itself: it must keep driving all five games through the real bot (it is
how the README's throughput figures are measured). Behaviour only, never times."""

from __future__ import annotations

from bench import load


async def test_the_load_benchmark_plays_every_game_and_sees_every_picture():
    (report,) = await load.run(sessions=10, rates=[10.0], seconds=3, warmup=1)
    assert report["moves/s"] > 0
    assert report["lost"] == 0, "every interaction was answered and every move's picture went out"
    assert report["picture"], "moves that redraw the board were timed to their picture"
    assert report["bot CPU ms/move"] > 0
