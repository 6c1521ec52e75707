"""Octagone's hook for puzzles (:mod:`engines.puzzles`), two players only: the hard level's search
scores every placement.

With two players nothing that matters is hidden (the other hand is all the shields not in one's
own hand or on the board), so a puzzle is judged on what the player to move can see. Four players
hide the other hands: no puzzles there. A move is a placement as it changes the game: the shield
(or the White Lady's box) and the box it designates; two directions designating the same box play
the same, so either answers a puzzle. Each move is scored from the mover's view by the hard
level's search (:class:`engines.octagone.ai.Search`, its fitted weights) to ``depth`` plies,
every move in full (the review's scoring, :mod:`engines.octagone.review`).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from typing import Any

from engines.octagone import ENGINE
from engines.octagone.ai import TUNED_2P, WIN, Position, Search, _as_action, choose_action
from engines.octagone.rules import OctagoneState

GAME = "octagone"
OPENING_PLIES = 4  # a generated game's first plies are the medium level's (its search varies them by seed)
Key = tuple[Any, ...]


def key(state: OctagoneState) -> str:
    """The position (board, hands, target and player to move): what the set is deduplicated on."""
    return repr(Position.from_state(state).key())


def _key(state: OctagoneState, seat: int, action: Mapping[str, Any]) -> Key:
    after = ENGINE.apply(state, seat, dict(action))
    if action["type"] == "white_lady":
        return ("white_lady", action["box"], after.target)
    return ("place", action["shield"], after.target)


def _mover(state: OctagoneState) -> int:
    assert state.to_move is not None  # a puzzle's position is a running game
    return state.to_move


def _names(state: OctagoneState) -> dict[Key, str]:
    """Each distinct move's name: the notation of its first legal action."""
    seat, names = _mover(state), dict[Key, str]()
    for action in ENGINE.legal_actions(state, seat):
        if action["type"] in ("place", "white_lady"):
            names.setdefault(_key(state, seat, action), ENGINE.notation(state, seat, action))
    return names


def moves(state: OctagoneState) -> list[str]:
    return list(_names(state).values())


def move_of(state: OctagoneState, seat: int, action: Mapping[str, Any]) -> str | None:
    """The move an action plays, as :func:`moves` names it; None for what is no placement."""
    if action.get("type") not in ("place", "white_lady"):
        return None
    return _names(state).get(_key(state, seat, action))


def action(state: OctagoneState, move: str) -> dict[str, Any]:
    found: dict[str, Any] = ENGINE.parse_notation(state, _mover(state), move)
    return found


def scores(state: OctagoneState, depth: int, nodes: int) -> dict[str, float] | None:
    """Every move's score for the player to move at ``depth`` plies (the evaluation's points, a
    won game ``WIN``); None in the opening and with four players (no puzzles there)."""
    if state.players != 2 or state.opening or state.over:
        return None
    seat = _mover(state)
    search = Search(Position.from_state(state), seat, TUNED_2P, math.inf)  # exact at every depth: no budget cut
    values = search.root_values(depth + 1, exact=True)
    names, found = _names(state), dict[str, float]()
    for move, value in values.items():
        name = names[_key(state, seat, _as_action(move))]
        found[name] = max(found.get(name, -math.inf), max(-WIN, min(WIN, value)))
    return found


def wins_at_once(state: OctagoneState, move: str) -> bool:
    seat = _mover(state)
    after = ENGINE.apply(state, seat, action(state, move))
    return bool(after.outcome and after.outcome.ranks[seat] == 1 and not after.outcome.is_draw)


def reply(state: OctagoneState) -> dict[str, Any]:
    """The hard level's answer for the player to move (to show what a wrong move allows)."""
    return choose_action(state, _mover(state), "hard", seed=state.seed)


def game(seed: int) -> Iterator[tuple[OctagoneState, list[tuple[int, dict[str, Any]]]]]:
    """A two-player computer-against-computer game from ``seed``: every position with the record
    up to it. The first :data:`OPENING_PLIES` are the medium level's, the rest the hard level's."""
    state = ENGINE.new_game(2, {}, seed)
    record: list[tuple[int, dict[str, Any]]] = []
    while not state.over:
        yield state, list(record)
        seat = _mover(state)
        level = "medium" if state.ply < OPENING_PLIES else "hard"
        chosen = choose_action(state, seat, level, seed=seed)
        record.append((seat, chosen))
        state = ENGINE.apply(state, seat, chosen)
