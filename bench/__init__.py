"""Benchmarks: ``python -m bench`` runs every ``bench/bench_*.py`` module and prints one table.

A module defines ``def run() -> list[Row]``. Use :func:`measure` for timings (and
:func:`game_move_times` for every computer move of whole games); figures that are not times
(bytes, win rates) are rows with ``unit`` set and a single sample. Timings live here, not in
tests: the tests check behaviour, which does not depend on how busy the machine is.

``python -m bench --quick`` runs every module once on a tiny size (CI runs it, so no benchmark
rots unseen): one sample of each timing, two moves of one game, a few games where a module plays
many. Its figures mean nothing; that it runs to the end does. A module sizes its own work with
:func:`sized`.
"""

from __future__ import annotations

import itertools
import statistics
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

QUICK = False  # set by ``python -m bench --quick``: every figure from a tiny size, to check the code runs
QUICK_MOVES = 2  # the moves of one game :func:`game_move_times` plays in quick mode


def sized(full: Any, quick: Any) -> Any:
    """``quick`` in quick mode, ``full`` otherwise: how a module sizes its own work."""
    return quick if QUICK else full


@dataclass
class Row:
    name: str
    samples: list[float]  # seconds for timings, or plain values for other units
    unit: str = "ms"  # "ms" (samples are seconds, shown in ms), "us", or any other unit shown as is
    baseline: str | None = None  # name of a row measured in the same run to show a ratio against
    note: str = ""

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    @property
    def p95(self) -> float:
        ordered = sorted(self.samples)
        return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def measure(name: str, func: Callable[[], Any], repeat: int = 30, warmup: int = 2, **row: Any) -> Row:
    """Time ``func`` ``repeat`` times (after ``warmup`` untimed calls); once in quick mode."""
    repeat, warmup = sized(repeat, 1), sized(warmup, 0)
    for _ in range(warmup):
        func()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        samples.append(time.perf_counter() - start)
    return Row(name, samples, **row)


def game_move_times(
    name: str,
    engine: Any,
    choose: Callable[[Any, int], Any],
    starts: Iterable[Any],
    moves: int | None = None,
    target: float | None = None,
    **row: Any,
) -> Row:
    """Time every move ``choose(state, seat)`` makes in games played from each of ``starts``
    (up to ``moves`` actions each, or to the end). The note gives the slowest move, and
    ``target`` (seconds) the most a single move should take. Quick mode plays ``QUICK_MOVES`` of
    the first game."""
    if QUICK:
        starts, moves = list(starts)[:1], QUICK_MOVES
    samples = []
    games = 0
    for state in starts:
        games += 1
        for _ in itertools.count() if moves is None else range(moves):
            if engine.outcome(state) is not None:
                break
            seat = engine.to_act(state)[0]
            start = time.perf_counter()
            action = choose(state, seat)
            samples.append(time.perf_counter() - start)
            state = engine.apply(state, seat, action)
    note = f"{len(samples)} moves in {games} game{'s' if games != 1 else ''}, slowest {max(samples) * 1000:.0f} ms"
    if target is not None:
        note += f" (target < {target * 1000:.0f} ms)"
    return Row(name, samples, note=note, **row)


def value(name: str, amount: float, unit: str, baseline: str | None = None, note: str = "") -> Row:
    return Row(name, [amount], unit=unit, baseline=baseline, note=note)


def blank_png(width: int, height: int) -> bytes:
    """The fixed baseline of every picture: a blank RGB image of the same size saved as PNG with
    Pillow's default settings (whatever the renderer's own settings are)."""
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (255, 255, 255)).save(buffer, format="PNG")
    return buffer.getvalue()


def picture_rows(name: str, render: Callable[[], Any], repeat: int = 10) -> list[Row]:
    """Render time and PNG bytes of a picture against the fixed blank baseline of the same size,
    timed in one interleaved loop so both see the same machine."""
    import io

    from PIL import Image

    repeat = sized(repeat, 1)
    png = render().png
    width, height = Image.open(io.BytesIO(png)).size
    size = f"{width}x{height}"
    blank_time, blank_bytes = f"{name}: blank PNG encode", f"{name}: blank PNG"
    blanks, renders = [], []
    for _ in range(repeat):
        for samples, work in ((blanks, lambda: blank_png(width, height)), (renders, render)):
            start = time.perf_counter()
            work()
            samples.append(time.perf_counter() - start)
    return [
        Row(blank_time, blanks, note=f"{size}, RGB, Pillow's default PNG settings"),
        Row(f"{name}: render", renders, baseline=blank_time, note=size),
        value(blank_bytes, len(blank_png(width, height)), "bytes", note=size),
        value(f"{name}: PNG", len(png), "bytes", baseline=blank_bytes, note=size),
    ]


@dataclass
class Table:
    rows: list[Row] = field(default_factory=list)
