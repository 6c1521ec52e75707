"""Octa, "The Game of 8": state, turn steps, actions and endings (pure Python).

A turn is a sequence of explicit steps (``state.step``, an in-game phase; the end of the game
is ``state.outcome``, and the step then stays where the game ended):

``place_action``  the turn's card was drawn automatically and the top action card revealed;
                  the player puts it on pile 0 or 1 (``flip``).
``action``        only when both visible action cards now share a suit: ``use_action`` or
                  ``skip_action``.
``option``        option A (``lay_run``), B (``take_line``), C (``claim_pool_run``) or ``pass_step``.
``b_play``        after B: lay/add cards; at least one taken card must reach the table, then
                  ``pass_step`` returns the token and refills the pool.
``exchange``      one ``exchange`` with the pool or ``pass_step``.
``discard``       ``discard`` a card (required with 8+ cards, repeated down to 8) or ``end_turn``
                  with fewer than 8 cards. A discard that leaves 8 or fewer cards ends the turn.

``add_to_run`` and ``fill_hidden`` are legal at every step of the player's own turn.

Action shapes (``legal_actions`` lists them exactly like this; card codes "7H", "10S", "AD"):

- ``{"type": "flip", "pile": 0 | 1}``
- ``{"type": "use_action", "action": "jack", "owner": 1, "run": 0, "slot": 2}`` (slot = index in
  the run's ``slots``), ``{"type": "use_action", "action": "queen", "positions": [1, 3]}`` (pool
  positions 1..8, ascending), ``{"type": "use_action", "action": "king", "source": "stock" | "discard"}``
- ``{"type": "skip_action"}``
- ``{"type": "lay_run", "cards": ["7H", "8H", "9H"], "token": False | True}`` (option A; in
  ``b_play`` always ``token: False``; ``token`` may be left out for False)
- ``{"type": "take_line", "line": "top" | "bottom" | "left" | "right"}`` (option B)
- ``{"type": "claim_pool_run"}`` (option C)
- ``{"type": "exchange", "hand_card": "5S", "pool_position": 3, "token": False}`` or with
  ``"token": True, "line": "top"`` (the pool run the token goes on)
- ``{"type": "add_to_run", "run": 0, "cards": ["9H", "10H"]}`` (own runs, one end at a time)
- ``{"type": "fill_hidden", "owner": 1, "run": 0, "card": "6H"}`` (replace a Jack's face-down
  card; the face-down card goes to your hand)
- ``{"type": "discard", "card": "KD"}``, ``{"type": "pass_step"}``, ``{"type": "end_turn"}``,
  ``{"type": "resign"}`` (any seat, any time while the game runs)

Menus: group by ``type`` first (at most ~12 types), then by the second key (``hand_card`` /
``run`` / ``owner``+``run``), which keeps each select within 25 options.

Events (``state.events``, public: a card only one player may see is never recorded; ``seat`` is
the acting seat, None for the game itself; runs, piles and lines are 0-based indexes or names):

- ``deal`` (None) ``first``: the seat that starts (new game, ply 0);
- ``turn`` (the seat to play) ``turn``, ``drew`` (a card was drawn from the stock),
  ``revealed`` (the action card turned up, or None), ``reshuffled`` (the action cards were
  reshuffled first);
- ``flip`` ``card``, ``pile``, ``match`` (the suits match: the action may be used), ``action``
  ("jack" / "queen" / "king");
- ``use_action`` ``action`` "jack" with ``owner``, ``run``, ``card`` (the card taken into the
  hand; the face-down card is not named); "queen" with ``positions``, ``cards``; "king" with
  ``source``, ``count`` (the cards drawn are not named);
- ``skip_action``; ``end_turn``; ``pass_step`` ``step`` (the step passed: "option", "b_play",
  "exchange");
- ``lay_run`` ``cards`` (in run order), ``run``, ``token``; ``take_line`` ``line``, ``cards``;
  ``claim_pool_run`` ``line``, ``cards``, ``run``;
- ``exchange`` ``card`` (put in the pool), ``taken``, ``position``, ``line`` (the pool run the
  token went on, or None);
- ``discard`` ``card``; ``add_to_run`` ``run``, ``cards`` (in run order), ``side`` ("high"/"low");
- ``fill_hidden`` ``owner``, ``run``, ``card`` (the card put face up; the face-down one is not named);
- ``stock_reshuffled`` (None) ``cards``, ``runs_returned``: the first time the stock ran out;
- ``last_turn`` (None): the stock ran out again;
- ``octa`` (the winner) ``table``: an Octa and enough table cards; then the kit's ``end``;
- the kit's ``resign`` and ``end``.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, cast

from engines.base import Game, GameState, IllegalAction, Outcome, ranks_from_scores, rng_from

from .cards import (
    ACTION_CARDS,
    ACTION_NAMES,
    FULL_DECK,
    NUMBER_CARDS,
    OCTA_LENGTH,
    POOL_LINES,
    WIN_TABLE_CARDS,
    card_name,
    card_values,
    extension_side,
    hand_runs,
    is_number_card,
    line_is_run,
    pool_neighbours,
    rank_of,
    ranks_touch,
    run_start_for,
    suit_of,
)

SCHEMA_VERSION = 2
PLAYERS = 2
HAND_SIZE = 8
POOL_SIZE = 8
ACTIONS_SET_ASIDE = 8
# (decision 2026-11-23) Where the card a Jack uncovers goes: "hand" of the acting player or "discard".
JACK_REPLACED_CARD_GOES_TO = "hand"
# (decision 2026-11-23) A King takes exactly this many cards; a source with fewer cannot be chosen.
KING_CARDS = 2

CENTRE = "centre"
FACE_DOWN = "#"  # a run slot "#7C" holds a face-down 7C placed by a Jack

OCTA_REASON = "an Octa and 28+ cards on the table"
STOCK_REASON = "the stock ran out twice: most cards on the table"

# What a refusal tells a player who tries something at the wrong step.
STEP_HINTS = {
    "place_action": "first put the revealed action card on action pile 1 or 2",
    "action": "first use the new action card or skip it",
    "option": "choose option A, B or C, or pass",
    "b_play": "play at least one of the taken pool cards, then finish option B",
    "exchange": "exchange a hand card with a pool card, or pass",
    "discard": "discard a card, or end the turn",
}


@dataclass(kw_only=True)
class OctaState(GameState):
    current: int = 0
    turn: int = 0  # turns started so far minus one (both players' turns count)
    step: str = "place_action"
    hands: list[list[str]] = field(default_factory=lambda: [[], []])
    stock: list[str] = field(default_factory=list)  # top is the last element
    discard: list[str] = field(default_factory=list)  # top is the last element
    pool: list[str | None] = field(default_factory=lambda: [None] * POOL_SIZE)  # positions 1..8
    action_stack: list[str] = field(default_factory=list)
    action_piles: list[list[str]] = field(default_factory=lambda: [[], []])
    set_aside: list[str] = field(default_factory=list)
    revealed: str | None = None  # action card drawn this turn, waiting to be placed
    new_pile: int = 0  # the pile the revealed card was put on this turn
    runs: list[list[dict[str, Any]]] = field(default_factory=lambda: [[], []])  # {"suit","start","slots"}
    tokens: list[str] = field(default_factory=lambda: [CENTRE, CENTRE])  # "centre", "pool:top", "run:2"
    token_turn: list[int] = field(default_factory=lambda: [-1, -1])
    exchanged: bool = False
    discards_this_turn: int = 0
    b_taken: list[str] = field(default_factory=list)
    # Face-down cards a Jack placed this turn, as "owner:card that belongs there": nobody may fill
    # them before the next turn (decision 2026-11-23).
    fresh_face_down: list[str] = field(default_factory=list)
    b_played: bool = False
    b_new_run: bool = False
    stock_runouts: int = 0
    final_turn: bool = False
    shuffles: int = 0


# ---------------------------------------------------------------- public helpers


def run_length(run: Mapping[str, Any]) -> int:
    """Cards that count: face-down Jack cards keep their place but do not count."""
    return sum(1 for slot in run["slots"] if not slot.startswith(FACE_DOWN))


def run_end(run: Mapping[str, Any]) -> int:
    start: int = run["start"]
    return start + len(run["slots"]) - 1


def table_count(state: OctaState, seat: int) -> int:
    return sum(run_length(run) for run in state.runs[seat])


def longest_run(state: OctaState, seat: int) -> int:
    return max((run_length(run) for run in state.runs[seat]), default=0)


def has_won(state: OctaState, seat: int) -> bool:
    return longest_run(state, seat) >= OCTA_LENGTH and table_count(state, seat) >= WIN_TABLE_CARDS


def protected_positions(state: OctaState) -> set[int]:
    """Pool positions inside a run that carries a token."""
    protected: set[int] = set()
    for token in state.tokens:
        if token.startswith("pool:"):
            protected.update(POOL_LINES[token[5:]])
    return protected


def all_cards(state: OctaState) -> Counter[str]:
    """Every card in every zone (face-down Jack cards included), for accounting checks."""
    counter: Counter[str] = Counter()
    for hand in state.hands:
        counter.update(hand)
    counter.update(state.stock)
    counter.update(state.discard)
    counter.update(c for c in state.pool if c is not None)
    counter.update(state.action_stack)
    for pile in state.action_piles:
        counter.update(pile)
    counter.update(state.set_aside)
    if state.revealed:
        counter[state.revealed] += 1
    for seat_runs in state.runs:
        for run in seat_runs:
            counter.update(slot.lstrip(FACE_DOWN) for slot in run["slots"])
    return counter


# ---------------------------------------------------------------- set-up


def _new_game(players: int, options: Mapping[str, Any], seed: int) -> OctaState:
    if players != PLAYERS:
        raise ValueError("Octa is played by exactly two players")
    deal = dict(options.get("deal") or {})
    state = OctaState(seed=seed, players=players, schema=SCHEMA_VERSION)
    remaining = Counter(FULL_DECK)

    def take(cards: list[str]) -> list[str]:
        for code in cards:
            if remaining[code] <= 0:
                raise ValueError(f"the test deal uses {code} more than twice")
            remaining[code] -= 1
        return list(cards)

    # Fixed parts of a test deal first, so the rest can be dealt from what is left.
    fixed_hands = [take(h) for h in deal.get("hands", [None, None]) if h is not None]
    if len(fixed_hands) not in (0, 2):
        raise ValueError("a test deal gives both hands or none")
    fixed_pool = take([c for c in deal["pool"] if c]) if "pool" in deal else None
    fixed_runs = [[take(cards) for cards in seat_runs] for seat_runs in deal.get("runs", [[], []])]
    stock_top = take(deal.get("stock_top", []))
    discard = take(deal.get("discard", []))
    fixed_piles = [take(p) for p in deal["action_piles"]] if "action_piles" in deal else None
    action_top = take(deal.get("action_stack_top", []))

    rng = rng_from(seed, "deal")
    numbers = [c for c in NUMBER_CARDS for _ in range(remaining[c])]
    actions = [c for c in ACTION_CARDS for _ in range(remaining[c])]
    rng.shuffle(numbers)
    rng.shuffle(actions)

    state.pool = list(deal["pool"]) if fixed_pool is not None else [numbers.pop() for _ in range(POOL_SIZE)]
    state.hands = fixed_hands or [[numbers.pop() for _ in range(HAND_SIZE)] for _ in range(PLAYERS)]
    # stock_top / action_stack_top list the cards in the order they will be drawn.
    state.stock = numbers + list(reversed(stock_top))
    state.discard = discard
    state.action_piles = fixed_piles or [[actions.pop()], [actions.pop()]]
    state.set_aside = [actions.pop() for _ in range(min(ACTIONS_SET_ASIDE, len(actions)))]
    state.action_stack = actions + list(reversed(action_top))
    for seat, seat_runs in enumerate(fixed_runs):
        for cards in seat_runs:
            start = run_start_for(cards)
            if start is None:
                raise ValueError(f"test deal run {cards} is not a run")
            state.runs[seat].append(_make_run(cards, start))
    state.current = int(deal["first"]) if "first" in deal else rng_from(seed, "first").randrange(PLAYERS)
    state.record("deal", None, first=state.current)
    _start_turn(state)
    return state


def _make_run(cards: list[str], start: int) -> dict[str, Any]:
    ordered = sorted(cards, key=lambda c: _value_in_run(c, start, len(cards)))
    return {"suit": suit_of(cards[0]), "start": start, "slots": ordered}


def _value_in_run(code: str, start: int, length: int) -> int:
    values = card_values(code)
    for v in values:
        if start <= v < start + length:
            return v
    return values[0]


# ---------------------------------------------------------------- turn flow


def _start_turn(state: OctaState) -> None:
    """The current seat's turn begins: the automatic draw and the action card turned up."""
    state.exchanged = False
    state.discards_this_turn = 0
    state.b_taken, state.b_played, state.b_new_run = [], False, False
    state.fresh_face_down = []
    drew = bool(state.stock)
    if drew:
        state.hands[state.current].append(state.stock.pop())
    _check_stock(state)
    reshuffled = _reveal_action_card(state)
    state.step = "place_action"
    state.record("turn", state.current, turn=state.turn, drew=drew, revealed=state.revealed, reshuffled=reshuffled)


def _reveal_action_card(state: OctaState) -> bool:
    """Turn up the next action card; True if the action cards were reshuffled first."""
    reshuffled = not state.action_stack
    if reshuffled:
        # Leave the two face-up cards; everything under them plus the set-aside cards is reshuffled.
        pool = [c for pile in state.action_piles for c in pile[:-1]] + state.set_aside
        state.action_piles = [pile[-1:] for pile in state.action_piles]
        state.set_aside = []
        state.shuffles += 1
        rng_from(state.seed, "actions", state.shuffles).shuffle(pool)
        state.action_stack = pool
    state.revealed = state.action_stack.pop() if state.action_stack else None
    return reshuffled


def _check_stock(state: OctaState) -> None:
    """The stock ran out: first time reshuffle discards and runs of exactly 3; second time, last turn."""
    if state.stock or state.outcome is not None or state.final_turn:
        return
    if state.stock_runouts == 0:
        state.stock_runouts = 1
        new_stock = list(state.discard)
        state.discard = []
        returned = 0
        for seat in range(PLAYERS):
            kept: list[dict[str, Any]] = []
            for index, run in enumerate(state.runs[seat]):
                if len(run["slots"]) == 3:  # every card counts here, face-down ones too (decision)
                    new_stock.extend(slot.lstrip(FACE_DOWN) for slot in run["slots"])
                    returned += 1
                    if state.tokens[seat] == f"run:{index}":
                        state.tokens[seat] = CENTRE
                else:
                    if state.tokens[seat] == f"run:{index}":
                        state.tokens[seat] = f"run:{len(kept)}"
                    kept.append(run)
            state.runs[seat] = kept
        state.shuffles += 1
        rng_from(state.seed, "stock", state.shuffles).shuffle(new_stock)
        state.stock = new_stock
        state.record("stock_reshuffled", None, cards=len(new_stock), runs_returned=returned)
        if state.stock:
            return
    state.stock_runouts = 2
    state.final_turn = True
    state.record("last_turn", None)


def _refill_pool(state: OctaState, discard_first: bool) -> None:
    for index in range(POOL_SIZE):
        if state.pool[index] is None:
            if discard_first and state.discard:
                state.pool[index] = state.discard.pop()
            elif state.stock:
                state.pool[index] = state.stock.pop()


def _outcome_for(state: OctaState, winner: int | None, reason: str) -> Outcome:
    """The outcome of a game won by ``winner`` (None: counted by table cards) for ``reason``."""
    return _ranked(tuple(float(table_count(state, s)) for s in range(PLAYERS)), winner, reason)


def _ranked(scores: tuple[float, ...], winner: int | None, reason: str) -> Outcome:
    ranks = ranks_from_scores(scores) if winner is None else tuple(1 if s == winner else 2 for s in range(PLAYERS))
    return Outcome(ranks=ranks, scores=scores, reason=reason)


# ---------------------------------------------------------------- legal actions


def _legal_actions(state: OctaState, seat: int) -> list[dict[str, Any]]:
    if state.outcome is not None or seat not in (0, 1):
        return []
    if seat != state.current:
        return [{"type": "resign"}]
    hand = state.hands[seat]
    actions: list[dict[str, Any]] = []
    step = state.step
    if step == "place_action":
        actions += [{"type": "flip", "pile": 0}, {"type": "flip", "pile": 1}]
    elif step == "action":
        actions += [*_action_uses(state, seat), {"type": "skip_action"}]
    elif step == "option":
        actions += [
            {"type": "lay_run", "cards": cards, "token": token}
            for cards in hand_runs(hand)
            for token in _token_choices(state, seat)
        ]
        actions += [{"type": "take_line", "line": line} for line in POOL_LINES if _line_takeable(state, seat, line)]
        if _claimable_line(state, seat):
            actions.append({"type": "claim_pool_run"})
        actions.append({"type": "pass_step"})
    elif step == "b_play":
        if not state.b_new_run:
            actions += [
                {"type": "lay_run", "cards": cards, "token": False}
                for cards in hand_runs(hand)
                if any(c in state.b_taken for c in cards)
            ]
        if state.b_played or not _can_play_any(state, seat, hand, state.b_taken):
            actions.append({"type": "pass_step"})
    elif step == "exchange":
        actions += [*_exchanges(state, seat), {"type": "pass_step"}]
    elif step == "discard":
        if state.discards_this_turn == 0 or len(hand) > HAND_SIZE:
            actions += [{"type": "discard", "card": c} for c in _distinct(hand)]
        if len(hand) < HAND_SIZE or (state.discards_this_turn > 0 and len(hand) <= HAND_SIZE):
            actions.append({"type": "end_turn"})
    plays = _dedupe(_additions(state, seat, hand)) + _fills(state, seat, hand)
    actions += [a for a in plays if not _b_waiting(state) or _uses_taken(state, a)]
    actions.append({"type": "resign"})
    return actions


def _b_waiting(state: OctaState) -> bool:
    """Option B waits for one of the taken pool cards to be played: until then every play must
    use one, so the hand card that made a taken card playable cannot be spent first."""
    return state.step == "b_play" and not state.b_played


def _uses_taken(state: OctaState, play: Mapping[str, Any]) -> bool:
    cards = play["cards"] if "cards" in play else [play["card"]]
    return any(card in state.b_taken for card in cards)


def _check_b_play(state: OctaState, play: Mapping[str, Any]) -> None:
    if _b_waiting(state) and not _uses_taken(state, play):
        raise IllegalAction("option B: first play one of the cards you took from the pool; your other cards can follow")


def _distinct(cards: list[str]) -> list[str]:
    return list(dict.fromkeys(cards))


def _token_choices(state: OctaState, seat: int) -> list[bool]:
    return [False, True] if state.tokens[seat] == CENTRE else [False]


def _additions(state: OctaState, seat: int, hand: list[str]) -> list[dict[str, Any]]:
    actions = []
    for index, run in enumerate(state.runs[seat]):
        for step_dir, edge in ((1, run_end(run)), (-1, run["start"])):
            cards: list[str] = []
            value = edge + step_dir
            available = Counter(hand)
            while True:
                candidates = [
                    c
                    for c in available
                    if available[c] > 0 and suit_of(c) == run["suit"] and is_number_card(c) and value in card_values(c)
                ]
                if not candidates:
                    break
                trial = [*cards, candidates[0]] if step_dir == 1 else [candidates[0], *cards]
                if extension_side(run["start"], run_end(run), run["suit"], trial) is None:
                    break
                cards = trial
                available[candidates[0]] -= 1
                actions.append({"type": "add_to_run", "run": index, "cards": list(cards)})
                value += step_dir
    return actions


def _fills(state: OctaState, seat: int, hand: list[str]) -> list[dict[str, Any]]:
    actions = []
    for owner in range(PLAYERS):
        for index, run in enumerate(state.runs[owner]):
            for offset, slot in enumerate(run["slots"]):
                if slot.startswith(FACE_DOWN):
                    wanted = _slot_code(run, offset)
                    if wanted in hand and f"{owner}:{wanted}" not in state.fresh_face_down:
                        actions.append({"type": "fill_hidden", "owner": owner, "run": index, "card": wanted})
    return _dedupe(actions)


def _dedupe(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    seen, unique = set(), []
    for action in actions:
        key = repr(sorted(action.items()))
        if key not in seen:
            seen.add(key)
            unique.append(action)
    return unique


def _slot_code(run: Mapping[str, Any], offset: int) -> str:
    value = run["start"] + offset
    suit: str = run["suit"]
    return ("A" if value in (1, 11) else str(value)) + suit


def _action_uses(state: OctaState, seat: int) -> list[dict[str, Any]]:
    kind = ACTION_NAMES[rank_of(state.action_piles[_new_pile(state)][-1])]
    uses: list[dict[str, Any]] = []
    if kind == "jack" and state.stock:
        for owner in range(PLAYERS):
            for index, run in enumerate(state.runs[owner]):
                if run_length(run) >= 2:
                    for offset, slot in enumerate(run["slots"]):
                        if not slot.startswith(FACE_DOWN):
                            uses.append(
                                {"type": "use_action", "action": "jack", "owner": owner, "run": index, "slot": offset}
                            )
    elif kind == "queen":
        protected = protected_positions(state)
        open_positions = [p for p in range(1, POOL_SIZE + 1) if state.pool[p - 1] and p not in protected]
        for i, a in enumerate(open_positions):
            for b in open_positions[i + 1 :]:
                if suit_of(cast(str, state.pool[a - 1])) == suit_of(cast(str, state.pool[b - 1])):
                    uses.append({"type": "use_action", "action": "queen", "positions": [a, b]})
    elif kind == "king":
        for source, pile in (("stock", state.stock), ("discard", state.discard)):
            if len(pile) >= KING_CARDS:
                uses.append({"type": "use_action", "action": "king", "source": source})
    return uses


def _new_pile(state: OctaState) -> int:
    return state.new_pile


def _line_takeable(state: OctaState, seat: int, line: str) -> bool:
    token = state.tokens[seat]
    if not token.startswith("run:") or state.token_turn[seat] >= state.turn:
        return False
    positions = POOL_LINES[line]
    if any(state.pool[p - 1] is None for p in positions) or set(positions) & protected_positions(state):
        return False
    taken = cast("list[str]", [state.pool[p - 1] for p in positions])  # all there: checked above
    return _can_play_any(state, seat, state.hands[seat] + taken, taken)


def _can_play_any(state: OctaState, seat: int, hand: list[str], required: list[str]) -> bool:
    if any(any(c in required for c in cards) for cards in hand_runs(hand)):
        return True
    return any(any(c in required for c in a["cards"]) for a in _additions(state, seat, hand))


def _claimable_line(state: OctaState, seat: int) -> str | None:
    token = state.tokens[seat]
    if token.startswith("pool:"):
        line = token[5:]
        if line_is_run([state.pool[p - 1] for p in POOL_LINES[line]]):
            return line
    return None


def _exchanges(state: OctaState, seat: int) -> list[dict[str, Any]]:
    if state.exchanged:
        return []
    protected = protected_positions(state)
    open_positions = [p for p in range(1, POOL_SIZE + 1) if state.pool[p - 1] is not None and p not in protected]
    actions = []
    for card in _distinct(state.hands[seat]):
        if not is_number_card(card):
            continue
        for position in open_positions:
            if _touches_neighbour(state, card, position):
                actions.append({"type": "exchange", "hand_card": card, "pool_position": position, "token": False})
                for line in _token_lines_after(state, seat, card, position):
                    actions.append(
                        {"type": "exchange", "hand_card": card, "pool_position": position, "token": True, "line": line}
                    )
    return actions


def _touches_neighbour(state: OctaState, card: str, position: int) -> bool:
    return any((other := state.pool[n - 1]) is not None and ranks_touch(card, other) for n in pool_neighbours(position))


def _exchange_allowed(state: OctaState, seat: int, card: str, position: int) -> bool:
    if not is_number_card(card) or state.pool[position - 1] is None:
        return False
    if position in protected_positions(state):
        return False
    return _touches_neighbour(state, card, position)


def _token_lines_after(state: OctaState, seat: int, card: str, position: int) -> list[str]:
    if state.tokens[seat] != CENTRE:
        return []
    pool = list(state.pool)
    pool[position - 1] = card
    protected = protected_positions(state)
    return [
        line
        for line, positions in POOL_LINES.items()
        if position in positions and not set(positions) & protected and line_is_run([pool[p - 1] for p in positions])
    ]


# ---------------------------------------------------------------- helpers of the actions


def _need_step(state: OctaState, *steps: str) -> None:
    if state.step not in steps:
        raise IllegalAction(f"that is not possible now: {STEP_HINTS[state.step]}")


def _take_from_hand(state: OctaState, seat: int, cards: list[str]) -> None:
    hand = state.hands[seat]
    if Counter(cards) - Counter(hand):
        missing = ", ".join(card_name(c) for c in (Counter(cards) - Counter(hand)))
        raise IllegalAction(f"you do not hold {missing}")
    for card in cards:
        hand.remove(card)


def _codes(cards: list[str]) -> list[str]:
    return [c.upper() for c in cards]


def _why_action_refused(state: OctaState, wanted: Mapping[str, Any]) -> str:
    kind = ACTION_NAMES[rank_of(state.action_piles[state.new_pile][-1])]
    if wanted.get("action") != kind:
        return f"the new action card is a {kind}"
    if kind == "jack":
        if not state.stock:
            return "the stock is empty, so there is no face-down card for the Jack"
        return "the Jack must cover a face-up card in a run that keeps at least one face-up card"
    if kind == "queen":
        return "the Queen takes two pool cards of the same suit, not from a run with a token"
    return f"the King takes {KING_CARDS} cards from the stock or the discard pile, and that pile is too small"


# ---------------------------------------------------------------- schema 1


_FIELDS = frozenset(field.name for field in dataclasses.fields(OctaState))
_OLD_REASONS = {"octa": OCTA_REASON, "stock": STOCK_REASON, "resign": "resignation"}


def _from_schema_1(data: dict[str, Any]) -> dict[str, Any]:
    """Schema 1 (before the kit) to 2: ``moves`` becomes ``ply``; ``winner``/``end_reason`` and
    the step "over" become ``outcome``; the English line about the last action goes (events
    start empty).

    Schema 1 put a finished game in the step "over"; the engine now leaves the step where the
    game ended (nothing reads it once there is an outcome). It is recovered from what the turn
    has done: a stock ending ends in "discard"; an action card still to place means
    "place_action"; cards taken by option B mean "b_play"; an exchange or a discard this turn
    means "discard"; otherwise "option" (a finished game's step cannot tell more)."""
    winner, reason, moves = data.get("winner"), data.get("end_reason", ""), data.get("moves", 0)
    data = {name: value for name, value in data.items() if name in _FIELDS}
    data["ply"] = moves
    data["players"] = PLAYERS
    data["events"] = []
    data["outcome"] = None
    if data.get("step") == "over":
        if reason == "stock":
            step = "discard"
        elif data.get("revealed"):
            step = "place_action"
        elif data.get("b_taken"):
            step = "b_play"
        elif data.get("exchanged") or data.get("discards_this_turn"):
            step = "discard"
        else:
            step = "option"
        data["step"] = step
        scores = tuple(float(sum(run_length(run) for run in runs)) for runs in data["runs"])
        counted = None if reason == "stock" or winner in (None, -1) else winner
        outcome = _ranked(scores, counted, _OLD_REASONS.get(reason, reason))
        data["outcome"] = {
            "ranks": list(outcome.ranks),
            "scores": list(outcome.scores),
            "reason": outcome.reason,
            "teams": None,
        }
    return data


# ---------------------------------------------------------------- the engine


class OctaEngine(Game[OctaState]):
    name = "octa"
    title = "Octa"
    min_players = PLAYERS
    max_players = PLAYERS
    state_class = OctaState
    schema = SCHEMA_VERSION
    actions: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "flip": {"pile": int},
        "use_action": {
            "action": str,
            "owner?": int,
            "run?": int,
            "slot?": int,
            "positions?": list[int],
            "source?": str,
        },
        "skip_action": {},
        "lay_run": {"cards": list[str], "token?": bool},
        "take_line": {"line": str},
        "claim_pool_run": {},
        "pass_step": {},
        "exchange": {"hand_card": str, "pool_position": int, "token?": bool, "line?": str},
        "discard": {"card": str},
        "end_turn": {},
        "add_to_run": {"run": int, "cards": list[str]},
        "fill_hidden": {"owner": int, "run": int, "card": str},
    }
    migrations: ClassVar[Mapping[int, Any]] = {1: _from_schema_1}

    # ------------------------------------------------------------ the kit
    def new_game(self, players: int, options: Mapping[str, Any], seed: int) -> OctaState:
        return _new_game(players, options, seed)

    def to_act(self, state: OctaState) -> list[int]:
        return [] if state.outcome is not None else [state.current]

    def legal_actions(self, state: OctaState, seat: int) -> list[dict[str, Any]]:
        return _legal_actions(state, seat)

    def scores(self, state: OctaState) -> tuple[float, ...]:
        return tuple(float(table_count(state, s)) for s in range(PLAYERS))

    def apply(self, state: OctaState, seat: int, action: Mapping[str, Any]) -> OctaState:
        new = super().apply(state, seat, action)
        if new.outcome is None:  # every action may complete an Octa or empty the stock
            _check_stock(new)
            for candidate in (new.current, 1 - new.current):
                if new.outcome is None and has_won(new, candidate):
                    new.record("octa", candidate, table=table_count(new, candidate))
                    self.finish(new, _outcome_for(new, candidate, OCTA_REASON))
        return new

    # ------------------------------------------------------------ the turn's end
    def _end_turn(self, state: OctaState) -> None:
        if state.final_turn:
            self.finish(state, _outcome_for(state, None, STOCK_REASON))
            return
        state.current = 1 - state.current
        state.turn += 1
        _start_turn(state)

    # ------------------------------------------------------------ actions
    def play_flip(self, state: OctaState, seat: int, action: Mapping[str, Any]) -> None:
        _need_step(state, "place_action")
        pile = action["pile"]
        if pile not in (0, 1):
            raise IllegalAction("choose action pile 1 or 2")
        card = cast(str, state.revealed)  # the flip step always has a revealed card
        state.action_piles[pile].append(card)
        state.revealed, state.new_pile = None, pile
        tops = [p[-1] for p in state.action_piles]
        matched = suit_of(tops[0]) == suit_of(tops[1])
        state.step = "action" if matched else "option"
        state.record("flip", seat, card=card, pile=pile, match=matched, action=ACTION_NAMES.get(rank_of(card)))

    def play_use_action(self, state: OctaState, seat: int, action: Mapping[str, Any]) -> None:
        _need_step(state, "action")
        wanted = dict(action)
        if "positions" in wanted:
            wanted["positions"] = sorted(wanted["positions"])
        if wanted not in _action_uses(state, seat):
            raise IllegalAction(_why_action_refused(state, wanted))
        hand = state.hands[seat]
        if wanted["action"] == "jack":
            run = state.runs[wanted["owner"]][wanted["run"]]
            uncovered = run["slots"][wanted["slot"]]
            (hand if JACK_REPLACED_CARD_GOES_TO == "hand" else state.discard).append(uncovered)
            run["slots"][wanted["slot"]] = FACE_DOWN + state.stock.pop()
            state.fresh_face_down.append(f"{wanted['owner']}:{uncovered}")
            state.record("use_action", seat, action="jack", owner=wanted["owner"], run=wanted["run"], card=uncovered)
        elif wanted["action"] == "queen":
            taken = [state.pool[p - 1] for p in wanted["positions"]]
            for p in wanted["positions"]:
                state.pool[p - 1] = None
            hand.extend(taken)
            _refill_pool(state, discard_first=False)
            state.record("use_action", seat, action="queen", positions=list(wanted["positions"]), cards=taken)
        else:
            source = state.stock if wanted["source"] == "stock" else state.discard
            hand.extend(source.pop() for _ in range(KING_CARDS))
            state.record("use_action", seat, action="king", source=wanted["source"], count=KING_CARDS)
        state.step = "option"

    def play_skip_action(self, state: OctaState, seat: int, action: Mapping[str, Any]) -> None:
        _need_step(state, "action")
        state.step = "option"
        state.record("skip_action", seat)

    def play_lay_run(self, state: OctaState, seat: int, action: Mapping[str, Any]) -> None:
        _need_step(state, "option", "b_play")
        cards = _codes(action["cards"])
        token = action.get("token", False)
        start = run_start_for(cards)
        if start is None:
            raise IllegalAction("those cards are not a run: 3 or more cards of one suit in a row (Ace low or high)")
        if state.step == "b_play":
            if state.b_new_run:
                raise IllegalAction("option B allows one new run")
            if not any(c in state.b_taken for c in cards):
                raise IllegalAction("the new run must use at least one of the cards taken from the pool")
            if token:
                raise IllegalAction("your token goes back to the pool centre after option B")
        elif token and state.tokens[seat] != CENTRE:
            raise IllegalAction("your token is not in the pool centre")
        _take_from_hand(state, seat, cards)
        state.runs[seat].append(_make_run(cards, start))
        index = len(state.runs[seat]) - 1
        if state.step == "b_play":
            state.b_new_run = state.b_played = True
        else:
            state.step = "exchange"
        if token:
            state.tokens[seat] = f"run:{index}"
            state.token_turn[seat] = state.turn
        state.record("lay_run", seat, cards=list(state.runs[seat][index]["slots"]), run=index, token=token)

    def play_take_line(self, state: OctaState, seat: int, action: Mapping[str, Any]) -> None:
        _need_step(state, "option")
        line = action["line"]
        if line not in POOL_LINES:
            raise IllegalAction("choose the top, bottom, left or right line of the pool")
        if not state.tokens[seat].startswith("run:") or state.token_turn[seat] >= state.turn:
            raise IllegalAction("option B needs your token on one of your runs since an earlier turn")
        if not _line_takeable(state, seat, line):
            raise IllegalAction(
                "you cannot take that line: it is incomplete, protected by a token, "
                "or none of its cards could be played at once"
            )
        taken = cast("list[str]", [state.pool[p - 1] for p in POOL_LINES[line]])  # a takeable line is whole
        for p in POOL_LINES[line]:
            state.pool[p - 1] = None
        state.hands[seat].extend(taken)
        state.b_taken, state.b_played, state.b_new_run = list(taken), False, False
        state.step = "b_play"
        state.record("take_line", seat, line=line, cards=taken)

    def play_claim_pool_run(self, state: OctaState, seat: int, action: Mapping[str, Any]) -> None:
        _need_step(state, "option")
        line = _claimable_line(state, seat)
        if line is None:
            raise IllegalAction("option C needs your token on a run in the pool")
        cards = cast("list[str]", [state.pool[p - 1] for p in POOL_LINES[line]])  # a claimable line is a run
        for p in POOL_LINES[line]:
            state.pool[p - 1] = None
        state.runs[seat].append(_make_run(cards, cast(int, run_start_for(cards))))
        state.tokens[seat] = CENTRE
        state.record("claim_pool_run", seat, line=line, cards=cards, run=len(state.runs[seat]) - 1)
        _refill_pool(state, discard_first=True)
        state.step = "exchange"

    def play_pass_step(self, state: OctaState, seat: int, action: Mapping[str, Any]) -> None:
        _need_step(state, "option", "b_play", "exchange")
        passed = state.step
        if passed == "option":
            state.step = "exchange"
        elif passed == "b_play":
            if not state.b_played and _can_play_any(state, seat, state.hands[seat], state.b_taken):
                raise IllegalAction("play at least one of the taken pool cards onto the table first")
            state.tokens[seat] = CENTRE
            state.b_taken = []
            _refill_pool(state, discard_first=True)
            state.step = "exchange"
        else:
            state.step = "discard"
        state.record("pass_step", seat, step=passed)

    def play_exchange(self, state: OctaState, seat: int, action: Mapping[str, Any]) -> None:
        _need_step(state, "exchange")
        card = action["hand_card"].upper()
        position = action["pool_position"]
        if position not in range(1, POOL_SIZE + 1):
            raise IllegalAction("choose a pool position from 1 to 8")
        if card not in state.hands[seat]:
            raise IllegalAction(f"you do not hold {card_name(card) if card else 'that card'}")
        if state.exchanged:
            raise IllegalAction("you have already exchanged a card this turn")
        if position in protected_positions(state):
            raise IllegalAction("that pool card belongs to a run protected by a token")
        if not _exchange_allowed(state, seat, card, position):
            raise IllegalAction(f"{card_name(card)} must sit next to a card of its suit one rank higher or lower")
        line = None
        if action.get("token"):
            lines = _token_lines_after(state, seat, card, position)
            line = action.get("line") or (lines[0] if len(lines) == 1 else None)
            if state.tokens[seat] != CENTRE:
                raise IllegalAction("your token is not in the pool centre")
            if line not in lines:
                raise IllegalAction("the token must go on a run of 3 in the pool that this exchange makes")
        elif "line" in action:
            raise IllegalAction("a line is named only when the token goes on the pool run")
        taken = state.pool[position - 1]
        state.hands[seat].remove(card)
        state.hands[seat].append(taken)
        state.pool[position - 1] = card
        state.exchanged = True
        if line:
            state.tokens[seat] = f"pool:{line}"
            state.token_turn[seat] = state.turn
        state.step = "discard"
        state.record("exchange", seat, card=card, taken=taken, position=position, line=line)

    def play_discard(self, state: OctaState, seat: int, action: Mapping[str, Any]) -> None:
        _need_step(state, "discard")
        card = action["card"].upper()
        hand = state.hands[seat]
        if state.discards_this_turn > 0 and len(hand) <= HAND_SIZE:
            raise IllegalAction("you have already discarded this turn")
        if card not in hand:
            raise IllegalAction(f"you do not hold {card_name(card) if card else 'that card'}")
        hand.remove(card)
        state.discard.append(card)
        state.discards_this_turn += 1
        state.record("discard", seat, card=card)
        if len(hand) <= HAND_SIZE:
            self._end_turn(state)

    def play_end_turn(self, state: OctaState, seat: int, action: Mapping[str, Any]) -> None:
        _need_step(state, "discard")
        held = len(state.hands[seat])
        if held > HAND_SIZE or (held == HAND_SIZE and state.discards_this_turn == 0):
            raise IllegalAction(f"discard a card first: you hold {held} cards (limit {HAND_SIZE})")
        state.record("end_turn", seat)
        self._end_turn(state)

    def play_add_to_run(self, state: OctaState, seat: int, action: Mapping[str, Any]) -> None:
        cards = _codes(action["cards"])
        index = action["run"]
        if not 0 <= index < len(state.runs[seat]):
            raise IllegalAction("you have no such run")
        run = state.runs[seat][index]
        side = extension_side(run["start"], run_end(run), run["suit"], cards)
        if side is None:
            raise IllegalAction("those cards do not continue that run at one end")
        _check_b_play(state, {"cards": cards})
        _take_from_hand(state, seat, cards)
        ordered = sorted(cards, key=lambda c: max(card_values(c)) if side == "high" else min(card_values(c)))
        if side == "high":
            run["slots"].extend(ordered)
        else:
            run["slots"][:0] = ordered
            run["start"] -= len(cards)
        if state.step == "b_play" and any(c in state.b_taken for c in cards):
            state.b_played = True
        state.record("add_to_run", seat, run=index, cards=ordered, side=side)

    def play_fill_hidden(self, state: OctaState, seat: int, action: Mapping[str, Any]) -> None:
        wanted = {"type": "fill_hidden", "owner": action["owner"], "run": action["run"], "card": action["card"].upper()}
        if f"{wanted['owner']}:{wanted['card']}" in state.fresh_face_down:
            raise IllegalAction("a card the Jack turned face down this turn can be replaced from the next turn on")
        if wanted not in _fills(state, seat, state.hands[seat]):
            raise IllegalAction("that card does not match a face-down card in that run")
        _check_b_play(state, wanted)
        run = state.runs[wanted["owner"]][wanted["run"]]
        offset = next(
            i
            for i, slot in enumerate(run["slots"])
            if slot.startswith(FACE_DOWN) and _slot_code(run, i) == wanted["card"]
        )
        hidden = run["slots"][offset][1:]
        state.hands[seat].remove(wanted["card"])
        state.hands[seat].append(hidden)
        run["slots"][offset] = wanted["card"]
        if state.step == "b_play" and wanted["card"] in state.b_taken:
            state.b_played = True
        state.record("fill_hidden", seat, owner=wanted["owner"], run=wanted["run"], card=wanted["card"])
