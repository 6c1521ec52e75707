"""Octa's hook for reviews (engines.review): a step judged on what its player could see.

A player sees its own hand, the pool, the runs, the discard pile and the action piles, and knows
the cards the other player took in the open (from the pool, by a Queen, a Jack or an exchange)
and has not played since. It does not see the rest of the other hand, the stock's order, the
action cards still to come or the face-down cards a Jack put in a run. So every action is judged
over samples of those hidden cards dealt anew, consistent with what the player saw (the same
number of cards in each place), from an RNG seeded by the game and the ply: a review is the same
every time, and an action that was right on what the player saw is not marked because of the card
that really lay under it.

Each legal action is scored as the hard level scores it (the position after it, and after the
best action that follows it in the same turn), turned into an expected result by the curve and
averaged over the samples; the best action is the one with the highest average.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from engines.base import Event, IllegalAction, rng_from
from engines.review import expected

from .ai import evaluate
from .rules import FACE_DOWN, OctaEngine, OctaState

_RULES = OctaEngine()

# Events of a seat that put open cards into its hand, and that took cards out of it (by key).
_TAKEN = {"use_action": ("card", "cards"), "take_line": ("cards",), "exchange": ("taken",)}
_PLAYED = {"lay_run": ("cards",), "add_to_run": ("cards",), "discard": ("card",), "fill_hidden": ("card",)}
_PLAYED_TOO = {"exchange": ("card",)}


def hidden(state: OctaState) -> bool:
    """Octa always hides the other hand and the stock: each seat's review judges its own steps."""
    return True


def judge(
    state: OctaState, seat: int, action: dict[str, Any], budget: int, seen: Sequence[Event] = ()
) -> dict[str, Any] | None:
    """The best action and the expected results of it and of the one played, for ``seat``,
    averaged over ``budget`` samples of what ``seat`` could not see."""
    actions = [a for a in _RULES.legal_actions(state, seat) if a["type"] != "resign"]
    samples = _samples(state, seat, budget, seen)
    played = _average(samples, seat, action)
    if len(actions) <= 1:
        return {"forced": True, "best": "", "best_expected": played, "played_expected": played, "facts": {}}
    averages = [(_average(samples, seat, candidate), index) for index, candidate in enumerate(actions)]
    best_value, best_index = max(averages, key=lambda item: (item[0], -item[1]))
    if played >= best_value - 1e-9:
        best, best_value = action, played
    else:
        best = actions[best_index]
    return {
        "forced": False,
        "best": _RULES.notation(state, seat, best),
        "best_expected": best_value,
        "played_expected": played,
        "facts": {},
    }


def value(state: OctaState, viewer: int, budget: int, seen: Sequence[Event] = ()) -> float:
    """``viewer``'s expected result in ``state``, on what the viewer could see."""
    samples = _samples(state, viewer, budget, seen)
    return sum(expected("octa", evaluate(sample, viewer)) for sample in samples) / len(samples)


def points(state: OctaState) -> float:
    """The static evaluation for the seat on turn (what the curve is fitted on)."""
    return evaluate(state, state.current)


# ------------------------------------------------------------ what a seat could know


def known_cards(seen: Sequence[Event], other: int) -> Counter[str]:
    """The cards ``other`` took into its hand in the open and has not played since."""
    known: Counter[str] = Counter()
    for event in seen:
        if event.seat != other:
            continue
        if event.kind in _TAKEN and not (event.kind == "use_action" and event.data.get("action") == "king"):
            known.update(_cards(event, _TAKEN[event.kind]))
        for played in (_PLAYED.get(event.kind, ()), _PLAYED_TOO.get(event.kind, ())):
            known.subtract(_cards(event, played))
    return +known


def _cards(event: Event, keys: Sequence[str]) -> list[str]:
    cards: list[str] = []
    for key in keys:
        found = event.data.get(key)
        if isinstance(found, str):
            cards.append(found)
        elif isinstance(found, list):
            cards.extend(card for card in found if isinstance(card, str))
    return cards


def _samples(state: OctaState, seat: int, count: int, seen: Sequence[Event]) -> list[OctaState]:
    rng = rng_from(state.seed, "octa-review", state.ply, seat)
    known = known_cards(seen, 1 - seat) & Counter(state.hands[1 - seat])
    return [_sample(state, seat, rng, known) for _ in range(max(1, count))]


def _sample(state: OctaState, seat: int, rng: Any, known: Counter[str]) -> OctaState:
    """``state`` with what ``seat`` could not see dealt anew: the other hand's unknown cards, the
    stock and the face-down cards shuffled together, the action cards to come among themselves."""
    sample = state.copy()
    other = 1 - seat
    keep, unknown = [], []
    left = Counter(known)
    for card in sample.hands[other]:
        if left[card] > 0:
            keep.append(card)
            left[card] -= 1
        else:
            unknown.append(card)
    face_down = [
        (owner, index, slot)
        for owner in range(2)
        for index, run in enumerate(sample.runs[owner])
        for slot, code in enumerate(run["slots"])
        if code.startswith(FACE_DOWN)
    ]
    # Sorted first: two games the seat cannot tell apart give the same samples, whatever the true order.
    cards = sorted(unknown + sample.stock + [sample.runs[o][i]["slots"][s][len(FACE_DOWN) :] for o, i, s in face_down])
    rng.shuffle(cards)
    sample.hands[other] = sorted(keep) + cards[: len(unknown)]
    sample.stock = cards[len(unknown) : len(unknown) + len(sample.stock)]
    for (owner, index, slot), card in zip(face_down, cards[len(unknown) + len(sample.stock) :], strict=True):
        sample.runs[owner][index]["slots"][slot] = FACE_DOWN + card
    to_come = sorted(sample.action_stack + sample.set_aside)
    rng.shuffle(to_come)
    sample.action_stack = to_come[: len(sample.action_stack)]
    sample.set_aside = to_come[len(sample.action_stack) :]
    return sample


# ------------------------------------------------------------ scoring an action


def _average(samples: list[OctaState], seat: int, action: dict[str, Any]) -> float:
    results = [result for sample in samples if (result := _result(sample, seat, action)) is not None]
    return sum(results) / len(results) if results else 0.5


def _result(sample: OctaState, seat: int, action: dict[str, Any]) -> float | None:
    """The expected result of ``action`` in one sample, scored as the hard level scores it."""
    try:
        after = _RULES.apply(sample, seat, action)
    except IllegalAction:  # cannot happen with a consistent sample; a sample that allows it does not count
        return None
    score = evaluate(after, seat)
    if after.outcome is None and after.current == seat:
        follow = [a for a in _RULES.legal_actions(after, seat) if a["type"] != "resign"]
        score = max([score, *(evaluate(_RULES.apply(after, seat, a), seat) for a in follow)])
    return expected("octa", score)
