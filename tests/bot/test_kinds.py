"""Every kind of outbox entry and timer the bot's code asks for has its handler, and every handler
is asked for somewhere: a kind is a constant named where the feature is built, and a typo or a
handler left behind fails here, naming the module and the kind, instead of an entry that is never
sent (the outbox logs an unknown kind and tries it again for ever) or a timer that never fires."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

BOT = Path(__file__).resolve().parents[2] / "bot"
# The call, the place of its kind among the arguments, and what the kind is of.
ASKS = {
    "post": (0, "outbox"),
    "add_outbox": (1, "outbox"),
    "add_timer": (0, "timer"),
    "add_timer_elsewhere": (1, "timer"),
}


def asked_for() -> list[tuple[str, str, str]]:
    """(what, kind, where) for every outbox entry or timer a module of bot/ adds."""
    found = []
    for path in sorted(BOT.rglob("*.py")):
        module_name = ".".join(path.relative_to(BOT.parent).with_suffix("").parts)
        tree = ast.parse(path.read_text())
        calls = [
            node
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ASKS
        ]
        if not calls:
            continue
        module = importlib.import_module(module_name)
        for call in calls:
            at, what = ASKS[call.func.attr]
            if len(call.args) <= at or any(isinstance(arg, ast.Starred) for arg in call.args[: at + 1]):
                continue  # not one of ours (aiohttp's request.post()), or what a change asked for, passed on
            try:  # a constant of the module (or one it imported), as kinds are
                kind = eval(compile(ast.Expression(call.args[at]), str(path), "eval"), vars(module))
            except NameError:
                continue  # a kind passed on in a variable (the sessions' commit writes what a change asked for)
            found.append((what, kind, f"{module_name}:{call.lineno}"))
    return found


def test_every_kind_asked_for_has_a_handler_and_every_handler_is_asked_for(world):
    registered = {"outbox": set(world.platform.outbox.kinds), "timer": set(world.platform.timers.kinds)}
    asked = asked_for()
    assert asked, "the scan found the bot's outbox entries and timers"
    missing = [f"{what} kind {kind!r} at {where}" for what, kind, where in asked if kind not in registered[what]]
    assert missing == [], f"asked for with no handler registered: {missing}"
    for what, kinds in registered.items():
        unused = sorted(kinds - {kind for w, kind, _ in asked if w == what})
        assert unused == [], f"{what} handlers nothing asks for: {unused}"
