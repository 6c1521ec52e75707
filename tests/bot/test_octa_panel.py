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
from bot.table import Table
from engines.octa import ENGINE, choose_action


def _adapter() -> OctaAdapter:
    """An adapter without a platform: the panel needs only the table's narration line."""
    adapter = OctaAdapter.__new__(OctaAdapter)
    games = SimpleNamespace(games={"octa": adapter})
    adapter.ctx = SimpleNamespace(table=SimpleNamespace(narration=lambda session: Table.narration(games, session)))
    return adapter


def _session(state, names=("Ada", "Bo")) -> GameSession:
    record = SimpleNamespace(id=7, game="octa", status="active", players=[101, 202], actions=state.ply)
    return GameSession(record, state, SessionMeta(names=list(names)))


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
    adapter = _adapter()
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
    adapter = _adapter()
    state = ENGINE.new_game(2, {}, 8)
    text, view = adapter.panel(_session(state), 1 - state.current)
    assert view is None
    assert "<@101>'s turn" in text


def test_the_narration_names_each_player_by_their_own_name():
    """A player named "Seat 2" once had their moves told under the other player's name."""
    adapter = _adapter()
    deal = {"first": 0, "hands": [["7H", "2C"], ["9S"]], "action_piles": [["JH"], ["QS"]], "action_stack_top": ["KC"]}
    state = ENGINE.new_game(2, {"deal": deal}, 8)
    for action in ({"type": "flip", "pile": 0}, {"type": "pass_step"}, {"type": "pass_step"}):
        state = ENGINE.apply(state, 0, action)  # K♣ on J♥: no action; no option; no exchange
    state = ENGINE.apply(state, 0, {"type": "discard", "card": "7H"})
    session = _session(state, names=["Seat 2", "Bo"])
    said = adapter.ctx.table.narration(session)
    assert said.startswith("**Seat 2** discarded 7♥. **Bo** drew a card")
    assert "**Bo** discarded" not in said
    assert adapter.narrate(state.events[0], ["A", "B"]) == "A discarded 7♥."  # the render narrator
    text, view = adapter.panel(session, 1)
    assert view is not None
    assert "Last: **Seat 2** discarded 7♥." in text
    waiting, _ = adapter.panel(session, 0)
    assert "Last: **Seat 2** discarded 7♥." in waiting


def test_names_in_the_narration_are_escaped_by_the_session():
    adapter = _adapter()
    state = ENGINE.apply(ENGINE.new_game(2, {"deal": {"first": 0}}, 8), 0, {"type": "flip", "pile": 0})
    said = adapter.ctx.table.narration(_session(state, names=["*Ada*", "Bo"]))
    assert said.startswith("**\\*Ada\\*** put ")
