"""docs/ARCHITECTURE.md stays true: every module under bot/ is in its module table, and bot/'s
rooms import one way only (core, then ui, then features, then games and dev beside them), by
the same reading of imports as tests/test_layers.py."""

from __future__ import annotations

import ast
import re

import pytest

from tests.test_layers import ROOT, imports

ARCHITECTURE = ROOT / "docs" / "ARCHITECTURE.md"
# What each room of bot/ may not import. A room lower in the list builds on the ones above it;
# a game sees the shared parts through bot/ui/context.py and bot/ui/adapter.py, never a feature
# itself; nothing but the entry points (bot/__main__.py, bot/db.py) uses the developer tools.
FORBIDDEN_ROOMS = {
    "core": ("ui", "features", "games", "dev"),
    "ui": ("features", "games", "dev"),
    "features": ("games", "dev"),
    "games": ("features", "dev"),
}


def bot_modules() -> list[str]:
    """Every module under bot/ by its path there (``core/sessions.py``); a package's
    ``__init__.py`` only when it holds more than its docstring."""
    found = []
    for path in sorted((ROOT / "bot").rglob("*.py")):
        body = ast.parse(path.read_text()).body
        if path.name == "__init__.py" and all(isinstance(node, ast.Expr) for node in body):
            continue
        found.append(path.relative_to(ROOT / "bot").as_posix())
    return found


def table_modules() -> set[str]:
    """The paths named in backticks in the rows of ARCHITECTURE.md's tables."""
    rows = [line for line in ARCHITECTURE.read_text().splitlines() if line.startswith("|")]
    return {name for row in rows for name in re.findall(r"`([\w/]+\.py)`", row)}


def test_every_module_under_bot_is_in_the_architecture_module_table():
    listed = table_modules()
    missing = [module for module in bot_modules() if module not in listed]
    assert not missing, f"add these to docs/ARCHITECTURE.md's module table: {missing}"


def test_the_module_table_names_no_module_that_is_gone():
    gone = sorted(table_modules() - set(bot_modules()))
    assert not gone, f"docs/ARCHITECTURE.md's module table names modules that do not exist: {gone}"


@pytest.mark.parametrize("room", sorted(FORBIDDEN_ROOMS))
def test_a_room_of_bot_imports_only_the_rooms_it_builds_on(room):
    wrong = [
        f"{path}: {module}"
        for path, module, _ in imports(f"bot/{room}")
        if module.split(".")[:2] in [["bot", other] for other in FORBIDDEN_ROOMS[room]]
    ]
    assert not wrong, "\n".join(wrong)


def test_the_rooms_are_what_the_test_checks():
    rooms = {path.name for path in (ROOT / "bot").iterdir() if path.is_dir() and (path / "__init__.py").exists()}
    assert rooms == {*FORBIDDEN_ROOMS, "dev"}


# The modules at the top of bot/: the composition root, the bot and the entry points. They build
# everything, so nothing in a room may import them (the developer tools start the bot, so they may).
TOP_MODULES = ("platform", "app", "db", "__main__")


def test_every_module_of_bot_is_in_a_room_or_at_the_top():
    top = {f"{name}.py" for name in TOP_MODULES} | {"__init__.py"}
    loose = [path.name for path in (ROOT / "bot").glob("*.py") if path.name not in top]
    assert loose == [], "a module of bot/ belongs in a room (see docs/ARCHITECTURE.md) or is one of the top"


@pytest.mark.parametrize("room", sorted(FORBIDDEN_ROOMS))
def test_no_room_imports_the_modules_at_the_top(room):
    wrong = [
        f"{path}: {module}"
        for path, module, _ in imports(f"bot/{room}")
        if module.split(".")[:2] in [["bot", name] for name in TOP_MODULES]
    ]
    assert not wrong, "\n".join(wrong)


def test_no_two_classes_of_bot_share_a_name():
    """One class, one name: a reader (or a type checker) meeting a class's name never has to ask which."""
    found: dict[str, list[str]] = {}
    for path in sorted((ROOT / "bot").rglob("*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.ClassDef):
                found.setdefault(node.name, []).append(path.relative_to(ROOT).as_posix())
    assert {name: paths for name, paths in found.items() if len(paths) > 1} == {}


# A game reads its own tables (Octagion Daily's plays) through GameContext.reads with SQL written in
# its own store module, and nowhere else: the rest of a game reads through named methods.
GAME_SQL_READS = ("table_rows", "table_row")


def test_a_game_writes_its_sql_only_in_its_store_module():
    wrong = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in sorted((ROOT / "bot" / "games").rglob("*.py"))
        if path.name != "store.py"
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Attribute) and node.attr in GAME_SQL_READS
    ]
    assert wrong == [], "SQL outside a game's store module"
    from bot.ui.context import StoreReads

    assert all(callable(getattr(StoreReads, name, None)) for name in GAME_SQL_READS)
