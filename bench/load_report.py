"""What ``python -m bench load`` prints (:mod:`bench.load`): each run's report, the targets of
issue 41 beside its figures with "met" or "not met", and SQLite beside PostgreSQL."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any


def percentile(samples: Sequence[float], share: float) -> float:
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def ms(samples: list[float], digits: int = 0) -> str:
    """p50 / p95 / p99 in milliseconds; "n/a" for a run that saw none (a short run with no pictures)."""
    if not samples:
        return "n/a"
    parts = (statistics.median(samples), percentile(samples, 0.95), percentile(samples, 0.99))
    return " / ".join(f"{value * 1000:.{digits}f}" for value in parts)


def _server_cpu(report: dict[str, Any]) -> str:
    server = report["server CPU ms/move"]
    if report["database"] == "sqlite":
        return "none: SQLite's thread is in the bot's"
    return "not measured (a server elsewhere)" if server is None else f"{server:.1f} ms (not the bot's)"


def capacity(report: dict[str, Any]) -> float:
    """Moves a second the machine's cores could carry at the bot-only CPU per move."""
    moves: float = report["cores"] * 1000 / max(report["bot-only CPU ms/move"], 1e-9)
    return moves


DISCORD_REQUESTS_PER_SECOND = 50  # per bot token, across all its processes; interaction answers exempt


def discord_capacity(report: dict[str, Any]) -> float:
    """Moves a second Discord's global rate limit allows at the counted requests per move."""
    counted: float = sum(report["requests/move"].values())
    return DISCORD_REQUESTS_PER_SECOND / max(counted, 1e-9)


def _requests(report: dict[str, Any]) -> str:
    per_move = report["requests/move"]
    parts = ", ".join(f"{kind} {count:.2f}" for kind, count in per_move.items())
    return f"{sum(per_move.values()):.2f} ({parts}); exempt {report['exempt/move']:.2f}"


def shown(report: dict[str, Any]) -> str:
    return "\n".join(
        [
            f"{report['database']}, sessions {report['sessions']}, offered {report['offered']:g} moves/s: "
            f"achieved {report['moves/s']:.1f} moves/s",
            f"  answer (ms, p50 / p95 / p99)           {ms(report['answer'])}",
            f"  picture out (ms, p50 / p95 / p99)      {ms(report['picture'])}",
            f"  save (ms, p50 / p95 / p99)             {ms(report['save'], 1)} ({len(report['save'])} saves)",
            f"  event-loop lag (ms, p50 / p95 / p99)   {ms(report['loop lag'])}",
            f"  bot CPU per move                       {report['bot CPU ms/move']:.1f} ms "
            f"(of which worker processes {report['workers CPU ms/move']:.1f} ms)",
            f"  database server CPU per move           {_server_cpu(report)}",
            f"  SimCord and driver CPU per move        {report['SimCord+driver CPU ms/move']:.1f} ms (not the bot's)",
            f"  bot-only CPU per move                  {report['bot-only CPU ms/move']:.1f} ms "
            f"(worker processes as the OS counts them {report['worker processes CPU ms/move']:.1f} ms)",
            f"  main-process CPU per move              {main_process_cpu(report):.1f} ms "
            "(event loop and SQLite's thread, without the workers)",
            f"  capacity it implies on this machine    {capacity(report):.0f} moves/s on {report['cores']} cores "
            f"(load average {' / '.join(f'{load:.1f}' for load in report['load average'])})",
            f"  counted requests per move              {_requests(report)}",
            f"  capacity on Discord (50 requests/s)    {discord_capacity(report):.0f} moves/s "
            f"(global 429s answered: {report['429s']})",
            f"  RSS (bot and its workers)              {report['RSS MB']:.0f} MB",
            f"  database                               {report['database MB']:.1f} MB",
            f"  refused / lost / not offered           {report['refused']} / {report['lost']} / {report['unoffered']}",
        ]
    )


def side_by_side(sqlite: list[dict[str, Any]], postgresql: list[dict[str, Any]]) -> str:
    """One line per rate and database, and PostgreSQL's figures over SQLite's of the same run."""
    header = (
        "offered",
        "database",
        "moves/s",
        "save p50 / p95 / p99 ms",
        "answer p99 ms",
        "picture p99 ms",
        "bot CPU ms/move",
        "server CPU ms/move",
    )
    lines = [header]
    for lite, pg in zip(sqlite, postgresql, strict=True):
        for report in (lite, pg):
            server = report["server CPU ms/move"]
            lines.append(
                (
                    f"{report['offered']:g}",
                    report["database"],
                    f"{report['moves/s']:.1f}",
                    ms(report["save"], 1),
                    f"{percentile(report['answer'], 0.99) * 1000:.0f}",
                    f"{percentile(report['picture'], 0.99) * 1000:.0f}",
                    f"{report['bot CPU ms/move']:.1f}",
                    "-" if server is None else f"{server:.1f}",
                )
            )
        lines.append(
            (
                "",
                "ratio",
                f"{pg['moves/s'] / lite['moves/s']:.2f}x",
                f"{_median_ratio(pg['save'], lite['save'])} (p50)",
                "",
                "",
                f"{pg['bot CPU ms/move'] / lite['bot CPU ms/move']:.2f}x",
                "",
            )
        )
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    out = ["  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)).rstrip() for line in lines]
    out.insert(1, "  ".join("-" * width for width in widths))
    return "\n".join(out)


def _median_ratio(samples: list[float], baseline: list[float]) -> str:
    if not samples or not baseline:
        return "n/a"
    return f"{statistics.median(samples) / statistics.median(baseline):.2f}x"


# Issue 41's targets. "Saturated": offered past 100 moves/s, where the machine or the budget is full.
SATURATED_FROM = 100.0
Verdict = tuple[str, bool | None]  # (the figure, whether it meets its target; None: no target)


def main_process_cpu(report: dict[str, Any]) -> float:
    """The main process's CPU per move (its event loop and SQLite's thread, SimCord's share excluded):
    the bot's own CPU without its worker processes."""
    main: float = report["bot-only CPU ms/move"] - report["worker processes CPU ms/move"]
    return main


def _target_rows(report: dict[str, Any], best: float) -> list[tuple[str, str, Verdict]]:
    """(what, its target, (figure, met)) for one run."""
    counted = sum(report["requests/move"].values())
    answer, picture = percentile(report["answer"], 0.99), percentile(report["picture"], 0.99)
    saturated = report["offered"] > SATURATED_FROM
    rows: list[tuple[str, str, Verdict]] = [
        ("counted requests per move", "≤ 1.0", (f"{counted:.2f}", counted <= 1.0)),
        ("exempt requests per move", "", (f"{report['exempt/move']:.2f}", None)),
        (f"capacity on Discord ({DISCORD_REQUESTS_PER_SECOND}/s)", "", (f"{discord_capacity(report):.0f}/s", None)),
        (f"capacity on CPU ({report['cores']} cores)", "", (f"{capacity(report):.0f}/s", None)),
        ("main-process CPU per move", "≤ 4 ms", (f"{main_process_cpu(report):.1f} ms", main_process_cpu(report) <= 4)),
        (
            "bot-only CPU per move",
            "≤ 15 ms",
            (f"{report['bot-only CPU ms/move']:.1f} ms", report["bot-only CPU ms/move"] <= 15),
        ),
        ("global 429s", "0", (str(report["429s"]), report["429s"] == 0)),
    ]
    if saturated:
        share = report["moves/s"] / max(best, 1e-9)
        rows.append(("answer p99", "< 250 ms", (f"{answer * 1000:.0f} ms", answer < 0.25)))
        rows.append(("throughput of the best run", "≥ 90%", (f"{share:.0%}", share >= 0.9)))
    else:
        rows.append(("answer p99", "< 100 ms", (f"{answer * 1000:.0f} ms", answer < 0.1)))
        rows.append(("picture out p99", "< 1 s", (f"{picture:.1f} s", picture < 1.0)))
    return rows


def targets(reports: list[dict[str, Any]]) -> str:
    """Issue 41's targets beside one database's runs, one column per offered rate, "met" or "not met"."""
    best = max(report["moves/s"] for report in reports)
    columns = [dict((what, (target, verdict)) for what, target, verdict in _target_rows(r, best)) for r in reports]
    names = list(dict.fromkeys(what for column in columns for what in column))
    header = ["targets (issue 41)", "target", *(f"offered {r['offered']:g}/s" for r in reports)]
    lines = [header]
    for name in names:
        target = next(column[name][0] for column in columns if name in column)
        cells = []
        for column in columns:
            figure, met = column[name][1] if name in column else ("", None)
            cells.append(figure if met is None else f"{figure} {'met' if met else 'not met'}")
        lines.append([name, target, *cells])
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    out = ["  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)).rstrip() for line in lines]
    out.insert(1, "  ".join("-" * width for width in widths))
    return f"{reports[0]['database']}:\n" + "\n".join(out)
