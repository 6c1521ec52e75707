"""Computer opponent for Octa: picks the next action of the current step.

Levels:
- ``easy``: a random legal action, with a light preference for putting cards on the table.
- ``medium``: greedy: tries every legal action and keeps the one whose resulting position
  scores best (table cards, Octa progress, hand potential, token use, opponent's table).
- ``hard``: like medium, but it also looks one action further inside its own turn, so it
  sees e.g. that a King or a pool line pays off only with the play that follows.

Uses only the engine's public API (an ``OctaEngine`` and the public helpers of ``rules``/``cards``).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from .cards import OCTA_LENGTH, SUITS, WIN_TABLE_CARDS, card_values, is_number_card, suit_of
from .rules import HAND_SIZE, OctaEngine, OctaState, run_end, run_length, table_count

_RULES = OctaEngine()  # engines hold no state: this one plays like the package's ENGINE

LEVELS = ("easy", "medium", "hard")
PLAYING_TYPES = {"lay_run", "add_to_run", "claim_pool_run", "take_line", "use_action", "fill_hidden"}
HARD_BRANCH_LIMIT = 12  # best first-level candidates the hard level explores one step deeper


def choose_action(state: OctaState, seat: int, level: str = "medium", seed: int = 0) -> dict[str, Any]:
    actions = [a for a in _RULES.legal_actions(state, seat) if a["type"] != "resign"]
    if not actions:
        return {"type": "resign"}
    rng = random.Random(f"{seed}:{state.ply}:{seat}")
    if level == "easy":
        playing = [a for a in actions if a["type"] in PLAYING_TYPES]
        if playing and rng.random() < 0.6:
            return rng.choice(playing)
        return rng.choice(actions)
    scored = [(_score_after(state, seat, action), rng.random(), action) for action in actions]
    scored.sort(key=lambda item: (item[0], item[1]), reverse=True)
    if level == "hard":
        deeper = []
        for first_score, tie, action in scored[:HARD_BRANCH_LIMIT]:
            deeper.append((max(first_score, _best_follow_up(state, seat, action)), tie, action))
        deeper.sort(key=lambda item: (item[0], item[1]), reverse=True)
        return deeper[0][2]
    return scored[0][2]


def _best_follow_up(state: OctaState, seat: int, action: dict[str, Any]) -> float:
    after = _RULES.apply(state, seat, action)
    if after.outcome is not None or after.current != seat:
        return evaluate(after, seat)
    follow = [a for a in _RULES.legal_actions(after, seat) if a["type"] != "resign"]
    return max((_score_after(after, seat, a) for a in follow), default=evaluate(after, seat))


def _score_after(state: OctaState, seat: int, action: dict[str, Any]) -> float:
    return evaluate(_RULES.apply(state, seat, action), seat)


def evaluate(state: OctaState, seat: int) -> float:
    """How good ``state`` is for ``seat`` (higher is better)."""
    outcome = _RULES.outcome(state)
    if outcome is not None:
        return 1e6 if seat in outcome.winners and not outcome.is_draw else (0 if outcome.is_draw else -1e6)
    other = 1 - seat
    mine, theirs = table_count(state, seat), table_count(state, other)
    longest = max((run_length(r) for r in state.runs[seat]), default=0)
    their_longest = max((run_length(r) for r in state.runs[other]), default=0)
    score = 10.0 * min(mine, WIN_TABLE_CARDS) + 2.0 * max(0, mine - WIN_TABLE_CARDS)
    score += 6.0 * min(longest, OCTA_LENGTH)
    score -= 9.0 * min(theirs, WIN_TABLE_CARDS) + 5.0 * min(their_longest, OCTA_LENGTH)
    score += hand_potential(state, seat)
    token = state.tokens[seat]
    if token.startswith("pool:"):
        score += 18.0  # option C next turn: a free run of 3
    elif token.startswith("run:"):
        score += 8.0  # option B next turn
    return score


def hand_potential(state: OctaState, seat: int) -> float:
    """Cards that fit own runs or neighbour other hand cards are worth keeping."""
    hand = state.hands[seat]
    ends: dict[str, set[int]] = {suit: set() for suit in SUITS}
    for run in state.runs[seat]:
        ends[run["suit"]].update({run["start"] - 1, run_end(run) + 1, run["start"] - 2, run_end(run) + 2})
    counts = Counter(hand)
    total = 0.0
    for card in hand:
        if not is_number_card(card):
            continue
        values, suit = card_values(card), suit_of(card)
        value = 1.0
        if ends[suit] & set(values):
            value += 4.0
        for other in counts:
            if other == card or suit_of(other) != suit:
                continue
            gap = min(abs(a - b) for a in values for b in card_values(other))
            value += {1: 2.5, 2: 1.2}.get(gap, 0.0)
        value -= 0.8 * (counts[card] - 1)  # a duplicate cannot go in the same run
        total += value
    excess = max(0, len(hand) - HAND_SIZE)
    return total - 3.0 * excess
