"""The type checker against its baseline: mypy, strict everywhere (mypy.ini), may not get worse.

`python scripts/check_types.py` runs mypy and compares its errors, counted per file, with
scripts/mypy_baseline.json, the errors the older modules had when the checker came in. It fails when
a file has more errors than its baseline (a new module has none), when a strict package (engines/)
has any, and when a file has fewer errors than its baseline (so the baseline always says what is
left: lock the gain in with `--update`).

`--update` writes the baseline with the current counts, but refuses while any count grows, so the
baseline only ever shrinks. `--reset` writes the current counts even where they grew (accepting, say,
the code of several people merged at once); it still refuses errors in a strict package.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASELINE = ROOT / "scripts" / "mypy_baseline.json"
# Packages with no baseline at all: every error in them fails.
STRICT = ("engines/",)
ERROR = re.compile(r"^(?P<path>[^:\s]+\.py):\d+(?::\d+)?: error: ")


def count_errors(output: str) -> dict[str, int]:
    """mypy's output -> {file: number of errors} (notes are not errors)."""
    counts: Counter[str] = Counter()
    for line in output.splitlines():
        match = ERROR.match(line)
        if match:
            counts[match["path"]] += 1
    return dict(sorted(counts.items()))


def run_mypy() -> dict[str, int]:
    """Run mypy with the project's mypy.ini; exit on a crash or a configuration error (status 2)."""
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-error-summary", "--no-pretty"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode not in (0, 1):
        sys.exit(f"mypy did not run (status {done.returncode}):\n{done.stdout}{done.stderr}")
    return count_errors(done.stdout)


def _errors(n: int) -> str:
    return f"{n} error" if n == 1 else f"{n} errors"


def strict_errors(current: dict[str, int]) -> list[str]:
    return [f"{path}: {_errors(n)} in a strict package" for path, n in current.items() if path.startswith(STRICT)]


def grown(current: dict[str, int], baseline: dict[str, int]) -> list[str]:
    """Files with more errors than the baseline allows (a file it does not name allows none)."""
    return [
        f"{path}: {_errors(n)}, the baseline allows {baseline.get(path, 0)}"
        for path, n in current.items()
        if n > baseline.get(path, 0) and not path.startswith(STRICT)
    ]


def shrunk(current: dict[str, int], baseline: dict[str, int]) -> list[str]:
    """Files with fewer errors than the baseline says: the baseline should be lowered."""
    return [
        f"{path}: {_errors(current.get(path, 0))}, the baseline still says {n}"
        for path, n in baseline.items()
        if current.get(path, 0) < n
    ]


def compare(current: dict[str, int], baseline: dict[str, int]) -> list[str]:
    """Every reason the check fails, one line each; empty when the code matches its baseline."""
    problems = strict_errors(current) + grown(current, baseline)
    problems += [f"{line} (run `python scripts/check_types.py --update`)" for line in shrunk(current, baseline)]
    return problems


def read_baseline(path: Path = BASELINE) -> dict[str, int]:
    return json.loads(path.read_text()) if path.exists() else {}


def write_baseline(counts: dict[str, int], path: Path = BASELINE) -> None:
    kept = {file: n for file, n in sorted(counts.items()) if n and not file.startswith(STRICT)}
    path.write_text(json.dumps(kept, indent=1) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--update", action="store_true", help="lower the baseline to the current counts")
    mode.add_argument("--reset", action="store_true", help="write the current counts, even where they grew")
    args = parser.parse_args(argv)
    current, baseline = run_mypy(), read_baseline()
    refused = strict_errors(current) + ([] if args.reset else grown(current, baseline))
    if args.update or args.reset:
        if refused:
            print("The baseline is not written:", *refused, sep="\n  ")
            return 1
        write_baseline(current)
        print(f"{BASELINE.relative_to(ROOT)}: {_errors(sum(current.values()))} in {len(current)} files")
        return 0
    problems = compare(current, baseline)
    if problems:
        print("The type check fails (mypy.ini, scripts/mypy_baseline.json):", *problems, sep="\n  ")
        print("See each error with `python -m mypy`.")
        return 1
    print(f"Types: {_errors(sum(current.values()))} left in {len(current)} files, none new.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
