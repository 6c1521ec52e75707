"""``python -m bench [name ...]``: run every ``bench/bench_*.py`` module (or those named) and print one table.
``python -m bench load ...`` runs the load benchmark instead (:mod:`bench.load`), ``python -m bench
activity ...`` the Activity's (:mod:`bench.activity`).
``python -m bench pictures [name ...]`` runs only the picture rows (each module's ``pictures()``):
render time and PNG size of every picture against the blank PNG of its size.
``python -m bench --quick [name ...]`` runs them once on a tiny size (CI does, so that none rots;
its figures mean nothing), and without names the load benchmark for a few seconds.

Ratios compare a row with a baseline row measured in the same run, since absolute times vary
between machines and runs.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys

import bench
from bench import Row
from engines.registry import games


def discover(selected: list[str]) -> list[str]:
    names = sorted(m.name for m in pkgutil.iter_modules(bench.__path__) if m.name.startswith("bench_"))
    # The platform's figures first: they are the floor the games are compared with.
    names.sort(key=lambda n: n != "bench_platform")
    return [n for n in names if not selected or n.removeprefix("bench_") in selected or n in selected]


def games_without_benchmark() -> list[str]:
    """Registered games with no ``bench/bench_<game>.py``, where a game's moves and pictures are timed."""
    modules = {m.name for m in pkgutil.iter_modules(bench.__path__)}
    return [game for game in games() if f"bench_{game}" not in modules]


def shown(row: Row, amount: float) -> str:
    if row.unit == "ms":
        return f"{amount * 1000:.2f}"
    if row.unit == "us":
        return f"{amount * 1e6:.1f}"
    return f"{amount:,.2f}" if isinstance(amount, float) and not amount.is_integer() else f"{amount:,.0f}"


def table(rows: list[Row]) -> str:
    by_name = {row.name: row for row in rows}
    lines = [("benchmark", "median", "p95", "unit", "ratio", "note")]
    for row in rows:
        base = by_name.get(row.baseline) if row.baseline and row.baseline != row.name else None
        ratio = f"{row.median / base.median:.2f}x {base.name}" if base and base.median else ""
        lines.append((row.name, shown(row, row.median), shown(row, row.p95), row.unit, ratio, row.note))
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    out = []
    for index, line in enumerate(lines):
        out.append("  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)).rstrip())
        if index == 0:
            out.append("  ".join("-" * width for width in widths))
    return "\n".join(out)


def main(argv: list[str]) -> int:
    if argv[:1] == ["load"]:  # the load benchmark has its own options and report
        from bench import load

        return load.main(argv[1:])
    if "activity" in argv[:2] and (argv[:1] == ["activity"] or argv[:1] == ["--quick"]):  # the Activity's, too
        from bench import activity

        rest = [arg for arg in argv if arg not in ("activity", "--quick")]
        return activity.main(rest, quick="--quick" in argv)
    if "--quick" in argv:
        bench.QUICK = True
        argv = [arg for arg in argv if arg != "--quick"]
    only_pictures = argv[:1] == ["pictures"]
    for game in games_without_benchmark():
        print(f"note: {game} has no bench/bench_{game}.py, so none of its figures are measured", file=sys.stderr)
    rows: list[Row] = []
    for name in discover(argv[1:] if only_pictures else argv):
        module = importlib.import_module(f"bench.{name}")
        if only_pictures and not hasattr(module, "pictures"):
            continue
        print(f"running {name} ...", file=sys.stderr, flush=True)
        rows.extend(module.pictures() if only_pictures else module.run())
    print(table(rows))
    if bench.QUICK and not argv:  # the load benchmarks too, for a few seconds: they must not rot either
        quick_load()
        quick_activity()
    return 0


def quick_load() -> None:
    """A few seconds of ``python -m bench load`` on ten sessions, its report and targets printed."""
    import asyncio

    from bench import load
    from bench.load_report import shown, targets

    print("running load (quick) ...", file=sys.stderr, flush=True)
    reports = asyncio.run(load.run(sessions=10, rates=[10.0], seconds=3, warmup=1))
    print("\n" + "\n\n".join(shown(report) for report in reports) + "\n\n" + targets(reports))


def quick_activity() -> None:
    """``python -m bench activity`` on a tiny size (4 games, 16 boards, 2 s), its table printed."""
    from bench import activity

    print("running activity (quick) ...", file=sys.stderr, flush=True)
    activity.main([], quick=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
