"""The layers hold: engines are pure, render draws from engines only, and nothing outside an
engine reaches past its package's ``__all__``."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from engines.registry import KITS, games

ROOT = Path(__file__).resolve().parent.parent
GAMES = games()
FORBIDDEN = {
    "engines": ("discord", "PIL", "asyncio", "aiosqlite", "bot", "render"),
    "render": ("discord", "asyncio", "aiosqlite", "bot"),
}


def imports(layer: str):
    """(file, module, names) for every import in a layer's source."""
    for path in sorted((ROOT / layer).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                yield path.relative_to(ROOT), node.module, [alias.name for alias in node.names]
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    yield path.relative_to(ROOT), alias.name, []


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_a_layer_never_imports_the_layers_above_it(layer):
    wrong = [f"{path}: {module}" for path, module, _ in imports(layer) if module.split(".")[0] in FORBIDDEN[layer]]
    assert not wrong


# The kit every engine is built from, the game records written from any engine, and the registry of games.
SHARED_ENGINE_MODULES = ("engines.base", "engines.record", "engines.registry", "engines.review")


@pytest.mark.parametrize("layer", ["bot", "render", "bench"])
def test_outside_an_engine_only_its_package_exports_are_used(layer):
    packages = [*GAMES, *KITS]  # a game's package, or a kit's (tournaments), each through its __all__
    exported = {name: set(importlib.import_module(f"engines.{name}").__all__) for name in packages}
    wrong = []
    for path, module, names in imports(layer):
        parts = module.split(".")
        if parts[0] != "engines" or module in SHARED_ENGINE_MODULES:
            continue
        if len(parts) != 2 or parts[1] not in exported:
            wrong.append(f"{path}: imports {module} (use engines.<game> and its __all__)")
            continue
        wrong += [f"{path}: {module}.{name} is not in __all__" for name in names if name not in exported[parts[1]]]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("game", GAMES)
def test_every_engine_package_defines_its_engine_in_init(game):
    source = (ROOT / "engines" / game / "__init__.py").read_text()
    assigned = {
        target.id
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    assert "ENGINE" in assigned
