"""No module of bot/ is over 450 lines (issue 37): a module that grows past it is split where its
parts have names of their own, rather than read as one long file."""

from __future__ import annotations

from pathlib import Path

BOT = Path(__file__).resolve().parents[1] / "bot"
LIMIT = 450


def too_long(root: Path, limit: int = LIMIT) -> list[str]:
    """Each module under ``root`` with more than ``limit`` lines, as "path: N lines"."""
    found = []
    for path in sorted(root.rglob("*.py")):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > limit:
            found.append(f"{path.relative_to(root.parent).as_posix()}: {lines} lines")
    return found


def test_the_check_names_a_module_over_the_limit(tmp_path):
    (tmp_path / "bot" / "room").mkdir(parents=True)
    (tmp_path / "bot" / "room" / "long.py").write_text("x = 1\n" * (LIMIT + 1))
    (tmp_path / "bot" / "short.py").write_text("x = 1\n" * LIMIT)
    assert too_long(tmp_path / "bot") == [f"bot/room/long.py: {LIMIT + 1} lines"]


def test_no_module_of_the_bot_is_over_450_lines():
    assert BOT.is_dir()
    assert too_long(BOT) == [], f"split these modules (at most {LIMIT} lines each)"
