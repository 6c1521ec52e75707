"""Octagone's hook for reviews (engines.review): the hard level's search judges one placement.

With two players nothing is hidden in effect (the other hand is all 42 shields minus one's own and
those on the board), so the hard search (:class:`engines.octagone.ai.Search`, the fitted weights,
within the review's node budget) gives every placement's value exactly as the computer sees it.

With four players the other hands are hidden: a placement is judged on what its player knew,
over deals of the shields it had not seen consistent with what it saw (the count each seat holds,
its jokers, the colours each seat was seen to lack by skipping), like the computer's own deals
(``_HiddenHands``). The deals come from an RNG seeded by the game and the ply, so a review is the
same every time. Each deal's values are turned into expected results and averaged: a placement
that was right on average is not marked because of the deal that really happened.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from engines.base import Event, rng_from
from engines.review import expected

from .ai import (
    ENGINE_FOR_AI,
    KIND_NAMES,
    MAX_DEPTH,
    NO_BOX,
    PLANS,
    TUNED_2P,
    WIN,
    Position,
    Search,
    _as_action,
    _HiddenHands,
    _opening_values,
    evaluate,
)
from .board import BOXES
from .rules import OctagoneState

DEALS_DEPTH = 3  # four players: each deal searched two plies deep (as the medium level does)
HINT_TRUST = PLANS["hard"][4].joker_hints


def hidden(state: OctagoneState) -> bool:
    """Four players: another seat's placement is valued from the reviewed seat's view only (the
    other hands are hidden, and partners share a result, so a seat's review judges its own)."""
    return state.players == 4


def judge(
    state: OctagoneState, seat: int, action: dict[str, Any], budget: int, seen: Sequence[Event] = ()
) -> dict[str, Any] | None:
    """The best placement and the expected results of it and of the one played, for ``seat``,
    averaged over the deals ``seat`` could not tell apart (one deal with two players)."""
    if action.get("type") not in ("place", "white_lady"):
        return None
    played_key = _key(state, seat, action)
    totals: dict[Any, float] = {}
    deals = _deals(state, seat, budget)
    for hands in deals:
        for key, value in _values(state, seat, hands, budget).items():
            totals[key] = totals.get(key, 0.0) + expected("octagone", _capped(value)) / len(deals)
    best_key = max(sorted(totals), key=totals.__getitem__)
    played = totals.get(played_key, 0.0)
    if played >= totals[best_key] - 1e-9:
        best_key = played_key
    best_action = _key_action(state, seat, best_key)
    return {
        "forced": len(totals) == 1,
        "best": ENGINE_FOR_AI.notation(state, seat, best_action),
        "best_expected": totals[best_key],
        "played_expected": played,
        "facts": {},
    }


def value(state: OctagoneState, viewer: int, budget: int, seen: Sequence[Event] = ()) -> float:
    """``viewer``'s expected result in ``state`` (another seat's move just played), on what the
    viewer knew: the evaluation averaged over the deals it could not tell apart."""
    if state.opening or state.to_move is None:
        return 0.5
    deals = _deals(state, viewer, budget)
    total = 0.0
    for hands in deals:
        total += expected("octagone", _capped(evaluate(Position.from_state(state, hands), viewer, TUNED_2P)))
    return total / len(deals)


def points(state: OctagoneState) -> float:
    """The static evaluation for the seat to move (what the curve is fitted on)."""
    if state.opening or state.to_move is None:
        return 0.0
    return evaluate(Position.from_state(state), state.to_move, TUNED_2P)


def _deals(state: OctagoneState, seat: int, budget: int) -> list[list[list[int]] | None]:
    if state.players == 2 or state.open_hands:
        return [None]
    view = _HiddenHands.seen_by(state, seat, PLANS["hard"][4])
    rng = rng_from(state.seed, "octagone-review", state.ply, seat)
    return [view.deal(rng, HINT_TRUST) for _ in range(max(1, budget // 1000))]


def _values(
    state: OctagoneState, seat: int, hands: list[list[int]] | None, budget: int
) -> dict[tuple[Any, ...], float]:
    """Each distinct placement's value (by :func:`_key`) for ``seat`` in one deal."""
    if state.opening:
        openings = _opening_values(state, seat, hands, TUNED_2P)
        return {_key(state, seat, _as_action(move)): value for move, value in openings.items()}
    position = Position.from_state(state, hands and [list(hand) for hand in hands])
    if state.players == 2:
        values = Search(position, seat, TUNED_2P, budget).root_values(MAX_DEPTH, exact=True)
    else:
        values = Search(position, seat, TUNED_2P, math.inf).root_values(DEALS_DEPTH, exact=True)
    return {("place", kind, box): value for (kind, _, box), value in values.items()}


def _capped(value: float) -> float:
    """A won or lost line is worth the curve's certain result; a search's bound stays in range."""
    return max(-WIN, min(WIN, value))


def _key(state: OctagoneState, seat: int, action: dict[str, Any]) -> tuple[Any, ...]:
    """What tells two placements apart: the shield and the box it designates (a direction that
    designates the same box plays the same), or the White Lady's box and the box she designates."""
    after = ENGINE_FOR_AI.apply(state, seat, action)
    designated = BOXES.index(after.target) if after.target is not None else NO_BOX
    if action["type"] == "white_lady":
        return ("white_lady", BOXES.index(action["box"]), designated)
    return ("place", KIND_NAMES.index(action["shield"]), designated)


def _key_action(state: OctagoneState, seat: int, key: tuple[Any, ...]) -> dict[str, Any]:
    """The first legal action with this key (the first direction that designates that box)."""
    for action in ENGINE_FOR_AI.legal_actions(state, seat):
        if action["type"] != "resign" and _key(state, seat, action) == key:
            return action
    raise ValueError(f"no legal placement {key}")
