"""The Octa turn panel over many real positions: every legal action is reachable through its
controls, and the controls always fit Discord's limits (5 rows, 25 options, unique values)."""

from __future__ import annotations

import contextlib
import random
from itertools import combinations
from types import SimpleNamespace

import discord
import pytest

from bot.adapter import GameSession
from bot.games.octa import OctaAdapter
from bot.sessions import SessionMeta
from engines.octa import ENGINE
from engines.octa.ai import choose_action


def _session(state) -> GameSession:
    record = SimpleNamespace(id=7, status="active", players=[101, 202], actions=0)
    return GameSession(record, state, SessionMeta(names=["Ada", "Bo"]))


def _key(action: dict) -> str:
    return repr(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in action.items()))


def _reachable(adapter: OctaAdapter, session: GameSession, seat: int, focus=None, seen=None) -> set[str]:
    """Keys of every action some control of the panel (or of a panel narrowed by a group select) makes."""
    seen = set() if seen is None else seen
    text, view = adapter.panel(session, seat, focus)
    assert view is not None, text
    items = [child.item for child in view.children]
    rows = {item.row for item in items}
    assert len(rows) <= 5
    assert all(row is not None for row in rows)
    found: set[str] = set()
    for item in items:
        assert len(item.custom_id) <= 100
        _, sid, name, arg = item.custom_id.split(":", 3)
        assert sid == "7"
        if isinstance(item, discord.ui.Button):
            assert name == "octa_do"
            assert len(item.label) <= 80
            found.add(_key(adapter._button_action(arg.split(":", 1)[1])))
            continue
        values = [o.value for o in item.options]
        assert 1 <= len(values) <= 25
        assert len(set(values)) == len(values)
        assert all(len(o.label) <= 100 for o in item.options)
        _, kind, mode, group = arg.split(":")
        if mode == "g":
            for value in values:
                if (kind, value) not in seen:
                    seen.add((kind, value))
                    found |= _reachable(adapter, session, seat, (kind, value), seen)
        elif item.max_values > 1:
            for pair in combinations(values, item.min_values):
                with contextlib.suppress(Exception):  # a combination the engine would refuse
                    found.add(_key(adapter._select_action(kind, group, list(pair))))
        else:
            found |= {_key(adapter._select_action(kind, group, [value])) for value in values}
    return found


@pytest.mark.parametrize("seed", range(6))
def test_every_legal_action_is_on_the_panel(seed):
    adapter = OctaAdapter.__new__(OctaAdapter)  # the panel needs no platform
    state = ENGINE.new_game(2, {}, seed)
    rng = random.Random(seed)
    steps_seen = set()
    for _ in range(160):
        if ENGINE.outcome(state):
            break
        seat = state.current
        legal = {_key(a) for a in ENGINE.legal_actions(state, seat) if a["type"] != "resign"}
        reachable = _reachable(adapter, _session(state), seat)
        assert legal <= reachable, (state.step, legal - reachable)
        steps_seen.add(state.step)
        level = rng.choice(["easy", "medium"])
        state = ENGINE.apply(state, seat, choose_action(state, seat, level, seed))
    assert {"place_action", "option", "exchange", "discard"} <= steps_seen


def test_the_waiting_player_gets_no_controls():
    adapter = OctaAdapter.__new__(OctaAdapter)
    state = ENGINE.new_game(2, {}, 8)
    text, view = adapter.panel(_session(state), 1 - state.current)
    assert view is None
    assert "<@101>'s turn" in text
