"""Octa, "The Game of 8": state, turn steps, actions and endings (pure Python).

A turn is a sequence of explicit steps (``state.step``):

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
``over``          the game has ended.

``add_to_run`` and ``fill_hidden`` are legal at every step of the player's own turn.

Action shapes (``legal_actions`` lists them exactly like this; card codes "7H", "10S", "AD"):

- ``{"type": "flip", "pile": 0 | 1}``
- ``{"type": "use_action", "action": "jack", "owner": 1, "run": 0, "slot": 2}`` (slot = index in
  the run's ``slots``), ``{"type": "use_action", "action": "queen", "positions": [1, 3]}`` (pool
  positions 1..8, ascending), ``{"type": "use_action", "action": "king", "source": "stock" | "discard"}``
- ``{"type": "skip_action"}``
- ``{"type": "lay_run", "cards": ["7H", "8H", "9H"], "token": False | True}`` (option A; in
  ``b_play`` always ``token: False``)
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
``state.last_event`` is a one-line public summary with 1-based "Seat N" labels.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engines.base import IllegalAction, Outcome, ranks_from_scores, rng_from

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

SCHEMA_VERSION = 1
PLAYERS = 2
HAND_SIZE = 8
POOL_SIZE = 8
ACTIONS_SET_ASIDE = 8
# (reconstruction) Where the card a Jack uncovers goes: "hand" of the acting player or "discard".
JACK_REPLACED_CARD_GOES_TO = "hand"
# (reconstruction) A King needs this many cards in the chosen source.
KING_CARDS = 2
# (reconstruction) Cards of a token-protected pool run cannot be exchanged by anyone.
PROTECTED_RUN_BLOCKS_OWNER_EXCHANGE = True

CENTRE = "centre"
FACE_DOWN = "#"  # a run slot "#7C" holds a face-down 7C placed by a Jack

STEP_TEXT = {
    "place_action": "Put the revealed action card on action pile 1 or 2",
    "action": "Use the new action card's action, or skip it",
    "option": "Choose option A (lay a run), B (take a pool line), C (claim your pool run) or pass",
    "b_play": "Play at least one of the taken pool cards onto the table, then finish",
    "exchange": "Exchange one hand card with a pool card, or pass",
    "discard": "Discard a card (hand limit 8), or end the turn with fewer than 8 cards",
    "over": "The game is over",
}


@dataclass
class OctaState:
    seed: int
    current: int = 0
    turn: int = 0
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
    b_played: bool = False
    b_new_run: bool = False
    stock_runouts: int = 0
    final_turn: bool = False
    shuffles: int = 0
    moves: int = 0
    winner: int | None = None  # -1 = draw
    end_reason: str = ""
    last_event: str = ""
    schema: int = SCHEMA_VERSION


# ---------------------------------------------------------------- public helpers


def clone(state: OctaState) -> OctaState:
    copy = dataclasses.replace(state)
    copy.hands = [list(h) for h in state.hands]
    copy.stock = list(state.stock)
    copy.discard = list(state.discard)
    copy.pool = list(state.pool)
    copy.action_stack = list(state.action_stack)
    copy.action_piles = [list(p) for p in state.action_piles]
    copy.set_aside = list(state.set_aside)
    copy.runs = [
        [{"suit": r["suit"], "start": r["start"], "slots": list(r["slots"])} for r in seat_runs]
        for seat_runs in state.runs
    ]
    copy.tokens = list(state.tokens)
    copy.token_turn = list(state.token_turn)
    copy.b_taken = list(state.b_taken)
    return copy


def run_length(run: Mapping[str, Any]) -> int:
    """Cards that count: face-down Jack cards keep their place but do not count."""
    return sum(1 for slot in run["slots"] if not slot.startswith(FACE_DOWN))


def run_end(run: Mapping[str, Any]) -> int:
    return run["start"] + len(run["slots"]) - 1


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


def token_line_owner(state: OctaState, line: str) -> int | None:
    for seat, token in enumerate(state.tokens):
        if token == f"pool:{line}":
            return seat
    return None


def step_description(state: OctaState) -> str:
    return STEP_TEXT[state.step]


def all_cards(state: OctaState) -> Counter:
    """Every card in every zone (face-down Jack cards included), for accounting checks."""
    counter: Counter = Counter()
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


def new_game(players: int, options: Mapping[str, Any], seed: int) -> OctaState:
    if players != PLAYERS:
        raise ValueError("Octa is played by exactly two players")
    deal = dict(options.get("deal") or {})
    state = OctaState(seed=seed)
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
    state.last_event = "The cards are dealt."
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
    state.exchanged = False
    state.discards_this_turn = 0
    state.b_taken, state.b_played, state.b_new_run = [], False, False
    if state.stock:
        state.hands[state.current].append(state.stock.pop())
    _check_stock(state)
    _reveal_action_card(state)
    state.step = "place_action"


def _reveal_action_card(state: OctaState) -> None:
    if not state.action_stack:
        # Leave the two face-up cards; everything under them plus the set-aside cards is reshuffled.
        pool = [c for pile in state.action_piles for c in pile[:-1]] + state.set_aside
        state.action_piles = [pile[-1:] for pile in state.action_piles]
        state.set_aside = []
        state.shuffles += 1
        rng_from(state.seed, "actions", state.shuffles).shuffle(pool)
        state.action_stack = pool
    state.revealed = state.action_stack.pop() if state.action_stack else None


def _end_turn(state: OctaState) -> None:
    if state.final_turn:
        _finish_by_count(state)
        return
    state.current = 1 - state.current
    state.turn += 1
    _start_turn(state)


def _finish_by_count(state: OctaState) -> None:
    counts = [table_count(state, s) for s in range(PLAYERS)]
    state.winner = -1 if counts[0] == counts[1] else (0 if counts[0] > counts[1] else 1)
    state.end_reason = "stock"
    state.step = "over"


def _check_stock(state: OctaState) -> None:
    """The stock ran out: first time reshuffle discards and runs of exactly 3; second time, last turn."""
    if state.stock or state.step == "over" or state.final_turn:
        return
    if state.stock_runouts == 0:
        state.stock_runouts = 1
        new_stock = list(state.discard)
        state.discard = []
        for seat in range(PLAYERS):
            kept = []
            for index, run in enumerate(state.runs[seat]):
                if run_length(run) == 3:
                    new_stock.extend(slot.lstrip(FACE_DOWN) for slot in run["slots"])
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
        state.last_event += " The stock ran out: the discard pile and all runs of 3 were shuffled into a new stock."
        if state.stock:
            return
    state.stock_runouts = 2
    state.final_turn = True
    state.last_event += " The stock ran out again: this is the last turn."


def _refill_pool(state: OctaState, discard_first: bool) -> None:
    for index in range(POOL_SIZE):
        if state.pool[index] is None:
            if discard_first and state.discard:
                state.pool[index] = state.discard.pop()
            elif state.stock:
                state.pool[index] = state.stock.pop()


def _after_action(state: OctaState) -> None:
    _check_stock(state)
    for seat in (state.current, 1 - state.current):
        if state.step != "over" and has_won(state, seat):
            state.winner = seat
            state.end_reason = "octa"
            state.step = "over"
            count = table_count(state, seat)
            state.last_event += f" Seat {seat + 1} has an Octa and {count} cards: they win!"


# ---------------------------------------------------------------- legal actions


def legal_actions(state: OctaState, seat: int) -> list[dict[str, Any]]:
    if state.step == "over" or seat not in (0, 1):
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
    actions += _additions(state, seat, hand) + _fills(state, seat, hand)
    actions.append({"type": "resign"})
    return actions


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
                    if wanted in hand:
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
    return ("A" if value in (1, 11) else str(value)) + run["suit"]


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
                if suit_of(state.pool[a - 1]) == suit_of(state.pool[b - 1]):
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
    taken = [state.pool[p - 1] for p in positions]
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
    return any(
        state.pool[n - 1] is not None and ranks_touch(card, state.pool[n - 1]) for n in pool_neighbours(position)
    )


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


# ---------------------------------------------------------------- apply


def apply(state: OctaState, seat: int, action: Mapping[str, Any]) -> OctaState:
    if not isinstance(action, Mapping) or "type" not in action:
        raise IllegalAction("an action needs a type")
    if state.step == "over":
        raise IllegalAction("the game is over")
    if seat not in (0, 1):
        raise IllegalAction("you are not a player in this game")
    kind = action["type"]
    new = clone(state)
    new.last_event = ""
    if kind == "resign":
        new.winner, new.end_reason, new.step = 1 - seat, "resign", "over"
        new.last_event = f"Seat {seat + 1} resigned."
        new.moves += 1
        return new
    if seat != state.current:
        raise IllegalAction("it is not your turn")
    handler = _HANDLERS.get(kind)
    if handler is None:
        raise IllegalAction(f"unknown action type {kind!r}")
    handler(new, seat, action)
    new.moves += 1
    if new.step != "over":
        _after_action(new)
    return new


def _need_step(state: OctaState, *steps: str) -> None:
    if state.step not in steps:
        raise IllegalAction(f"that is not possible now: {STEP_TEXT[state.step].lower()}")


def _take_from_hand(state: OctaState, seat: int, cards: list[str]) -> None:
    hand = state.hands[seat]
    if Counter(cards) - Counter(hand):
        missing = ", ".join(card_name(c) for c in (Counter(cards) - Counter(hand)))
        raise IllegalAction(f"you do not hold {missing}")
    for card in cards:
        hand.remove(card)


def _card_list(action: Mapping[str, Any], key: str = "cards") -> list[str]:
    cards = action.get(key)
    if not isinstance(cards, list | tuple) or not all(isinstance(c, str) for c in cards):
        raise IllegalAction("name the cards as a list of codes such as 7H")
    return [c.upper() for c in cards]


def _do_flip(state: OctaState, seat: int, action: Mapping[str, Any]) -> None:
    _need_step(state, "place_action")
    pile = action.get("pile")
    if pile not in (0, 1):
        raise IllegalAction("choose action pile 1 or 2")
    card = state.revealed
    state.action_piles[pile].append(card)
    state.revealed, state.new_pile = None, pile
    tops = [p[-1] for p in state.action_piles]
    matched = suit_of(tops[0]) == suit_of(tops[1])
    state.step = "action" if matched else "option"
    state.last_event = f"Seat {seat + 1} put {card_name(card)} on action pile {pile + 1}" + (
        f": suits match, the {ACTION_NAMES[rank_of(card)]} may be used." if matched else "."
    )


def _do_use_action(state: OctaState, seat: int, action: Mapping[str, Any]) -> None:
    _need_step(state, "action")
    wanted = dict(action)
    if isinstance(wanted.get("positions"), list | tuple):
        wanted["positions"] = sorted(wanted["positions"])
    if wanted not in _action_uses(state, seat):
        raise IllegalAction(_why_action_refused(state, wanted))
    hand = state.hands[seat]
    if wanted["action"] == "jack":
        run = state.runs[wanted["owner"]][wanted["run"]]
        uncovered = run["slots"][wanted["slot"]]
        (hand if JACK_REPLACED_CARD_GOES_TO == "hand" else state.discard).append(uncovered)
        run["slots"][wanted["slot"]] = FACE_DOWN + state.stock.pop()
        owner = wanted["owner"] + 1
        state.last_event = f"Seat {seat + 1} used the Jack on {card_name(uncovered)} of seat {owner}."
    elif wanted["action"] == "queen":
        taken = [state.pool[p - 1] for p in wanted["positions"]]
        for p in wanted["positions"]:
            state.pool[p - 1] = None
        hand.extend(taken)
        _refill_pool(state, discard_first=False)
        names = ", ".join(map(card_name, taken))
        state.last_event = f"Seat {seat + 1} used the Queen: took {names} from the pool."
    else:
        source = state.stock if wanted["source"] == "stock" else state.discard
        hand.extend(source.pop() for _ in range(KING_CARDS))
        source_name = wanted["source"]
        state.last_event = f"Seat {seat + 1} used the King: took {KING_CARDS} cards from the {source_name}."
    state.step = "option"


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


def _do_skip_action(state: OctaState, seat: int, action: Mapping[str, Any]) -> None:
    _need_step(state, "action")
    state.step = "option"
    state.last_event = f"Seat {seat + 1} did not use the action."


def _do_lay_run(state: OctaState, seat: int, action: Mapping[str, Any]) -> None:
    _need_step(state, "option", "b_play")
    cards = _card_list(action)
    token = bool(action.get("token", False))
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
    names = " ".join(map(card_name, state.runs[seat][-1]["slots"]))
    if state.step == "b_play":
        state.b_new_run = state.b_played = True
    else:
        state.step = "exchange"
    if token:
        state.tokens[seat] = f"run:{len(state.runs[seat]) - 1}"
        state.token_turn[seat] = state.turn
    state.last_event = f"Seat {seat + 1} laid the run {names}" + (" with their token." if token else ".")


def _do_take_line(state: OctaState, seat: int, action: Mapping[str, Any]) -> None:
    _need_step(state, "option")
    line = action.get("line")
    if line not in POOL_LINES:
        raise IllegalAction("choose the top, bottom, left or right line of the pool")
    if not state.tokens[seat].startswith("run:") or state.token_turn[seat] >= state.turn:
        raise IllegalAction("option B needs your token on one of your runs since an earlier turn")
    if not _line_takeable(state, seat, line):
        raise IllegalAction(
            "you cannot take that line: it is incomplete, protected by a token, "
            "or none of its cards could be played at once"
        )
    taken = [state.pool[p - 1] for p in POOL_LINES[line]]
    for p in POOL_LINES[line]:
        state.pool[p - 1] = None
    state.hands[seat].extend(taken)
    state.b_taken, state.b_played, state.b_new_run = taken, False, False
    state.step = "b_play"
    names = ", ".join(map(card_name, taken))
    state.last_event = f"Seat {seat + 1} took the {line} line of the pool: {names}."


def _do_claim_pool_run(state: OctaState, seat: int, action: Mapping[str, Any]) -> None:
    _need_step(state, "option")
    line = _claimable_line(state, seat)
    if line is None:
        raise IllegalAction("option C needs your token on a run in the pool")
    cards = [state.pool[p - 1] for p in POOL_LINES[line]]
    for p in POOL_LINES[line]:
        state.pool[p - 1] = None
    state.runs[seat].append(_make_run(cards, run_start_for(cards)))
    state.tokens[seat] = CENTRE
    _refill_pool(state, discard_first=True)
    state.step = "exchange"
    state.last_event = f"Seat {seat + 1} claimed the pool run {' '.join(map(card_name, cards))}."


def _do_pass_step(state: OctaState, seat: int, action: Mapping[str, Any]) -> None:
    _need_step(state, "option", "b_play", "exchange")
    if state.step == "option":
        state.step = "exchange"
        state.last_event = f"Seat {seat + 1} chose no option."
    elif state.step == "b_play":
        if not state.b_played and _can_play_any(state, seat, state.hands[seat], state.b_taken):
            raise IllegalAction("play at least one of the taken pool cards onto the table first")
        state.tokens[seat] = CENTRE
        state.b_taken = []
        _refill_pool(state, discard_first=True)
        state.step = "exchange"
        state.last_event = f"Seat {seat + 1} finished option B; the token returns and the pool is refilled."
    else:
        state.step = "discard"
        state.last_event = f"Seat {seat + 1} did not exchange."


def _do_exchange(state: OctaState, seat: int, action: Mapping[str, Any]) -> None:
    _need_step(state, "exchange")
    card = str(action.get("hand_card", "")).upper()
    position = action.get("pool_position")
    if position not in range(1, POOL_SIZE + 1):
        raise IllegalAction("choose a pool position from 1 to 8")
    if card not in state.hands[seat]:
        raise IllegalAction(f"you do not hold {card_name(card) if card else 'that card'}")
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
    taken = state.pool[position - 1]
    state.hands[seat].remove(card)
    state.hands[seat].append(taken)
    state.pool[position - 1] = card
    state.exchanged = True
    if line:
        state.tokens[seat] = f"pool:{line}"
        state.token_turn[seat] = state.turn
    state.step = "discard"
    state.last_event = (
        f"Seat {seat + 1} exchanged {card_name(card)} for {card_name(taken)} "
        f"at pool position {position}" + (f" and put their token on the {line} run." if line else ".")
    )


def _do_discard(state: OctaState, seat: int, action: Mapping[str, Any]) -> None:
    _need_step(state, "discard")
    card = str(action.get("card", "")).upper()
    hand = state.hands[seat]
    if state.discards_this_turn > 0 and len(hand) <= HAND_SIZE:
        raise IllegalAction("you have already discarded this turn")
    if card not in hand:
        raise IllegalAction(f"you do not hold {card_name(card) if card else 'that card'}")
    hand.remove(card)
    state.discard.append(card)
    state.discards_this_turn += 1
    state.last_event = f"Seat {seat + 1} discarded {card_name(card)}."
    if len(hand) <= HAND_SIZE:
        _end_turn(state)


def _do_end_turn(state: OctaState, seat: int, action: Mapping[str, Any]) -> None:
    _need_step(state, "discard")
    held = len(state.hands[seat])
    if held > HAND_SIZE or (held == HAND_SIZE and state.discards_this_turn == 0):
        raise IllegalAction(f"discard a card first: you hold {held} cards (limit {HAND_SIZE})")
    state.last_event = f"Seat {seat + 1} ended the turn."
    _end_turn(state)


def _do_add_to_run(state: OctaState, seat: int, action: Mapping[str, Any]) -> None:
    cards = _card_list(action)
    index = action.get("run")
    if not isinstance(index, int) or not 0 <= index < len(state.runs[seat]):
        raise IllegalAction("you have no such run")
    run = state.runs[seat][index]
    side = extension_side(run["start"], run_end(run), run["suit"], cards)
    if side is None:
        raise IllegalAction("those cards do not continue that run at one end")
    _take_from_hand(state, seat, cards)
    ordered = sorted(cards, key=lambda c: max(card_values(c)) if side == "high" else min(card_values(c)))
    if side == "high":
        run["slots"].extend(ordered)
    else:
        run["slots"][:0] = ordered
        run["start"] -= len(cards)
    if state.step == "b_play" and any(c in state.b_taken for c in cards):
        state.b_played = True
    state.last_event = f"Seat {seat + 1} added {' '.join(map(card_name, ordered))} to a run."


def _do_fill_hidden(state: OctaState, seat: int, action: Mapping[str, Any]) -> None:
    wanted = {
        "type": "fill_hidden",
        "owner": action.get("owner"),
        "run": action.get("run"),
        "card": str(action.get("card", "")).upper(),
    }
    if wanted not in _fills(state, seat, state.hands[seat]):
        raise IllegalAction("that card does not match a face-down card in that run")
    run = state.runs[wanted["owner"]][wanted["run"]]
    offset = next(
        i for i, slot in enumerate(run["slots"]) if slot.startswith(FACE_DOWN) and _slot_code(run, i) == wanted["card"]
    )
    hidden = run["slots"][offset][1:]
    state.hands[seat].remove(wanted["card"])
    state.hands[seat].append(hidden)
    run["slots"][offset] = wanted["card"]
    filled = card_name(wanted["card"])
    state.last_event = f"Seat {seat + 1} replaced a face-down card with {filled} and took it."


_HANDLERS = {
    "flip": _do_flip,
    "use_action": _do_use_action,
    "skip_action": _do_skip_action,
    "lay_run": _do_lay_run,
    "take_line": _do_take_line,
    "claim_pool_run": _do_claim_pool_run,
    "pass_step": _do_pass_step,
    "exchange": _do_exchange,
    "discard": _do_discard,
    "end_turn": _do_end_turn,
    "add_to_run": _do_add_to_run,
    "fill_hidden": _do_fill_hidden,
}


# ---------------------------------------------------------------- engine object


def outcome(state: OctaState) -> Outcome | None:
    if state.step != "over":
        return None
    scores = tuple(float(table_count(state, s)) for s in range(PLAYERS))
    if state.winner == -1:
        ranks = (1, 1)
    elif state.end_reason == "stock":
        ranks = ranks_from_scores(scores)
    else:
        ranks = tuple(1 if s == state.winner else 2 for s in range(PLAYERS))
    reasons = {
        "octa": "an Octa and 28+ cards on the table",
        "stock": "the stock ran out twice: most cards on the table",
        "resign": "a player resigned",
    }
    return Outcome(ranks=ranks, scores=scores, reason=reasons.get(state.end_reason, state.end_reason))


class OctaEngine:
    name = "octa"
    title = "Octa"
    min_players = PLAYERS
    max_players = PLAYERS
    schema_version = SCHEMA_VERSION

    def new_game(self, players: int, options: Mapping[str, Any], seed: int) -> OctaState:
        return new_game(players, options, seed)

    def apply(self, state: OctaState, seat: int, action: Mapping[str, Any]) -> OctaState:
        return apply(state, seat, action)

    def legal_actions(self, state: OctaState, seat: int) -> list[dict[str, Any]]:
        return legal_actions(state, seat)

    def to_act(self, state: OctaState) -> list[int]:
        return [] if state.step == "over" else [state.current]

    def outcome(self, state: OctaState) -> Outcome | None:
        return outcome(state)

    def dump(self, state: OctaState) -> dict[str, Any]:
        return dict(vars(clone(state)))  # clone copies every container; much faster than asdict

    def load(self, data: Mapping[str, Any]) -> OctaState:
        if data.get("schema") != SCHEMA_VERSION:
            raise ValueError(f"unsupported Octa state schema {data.get('schema')!r}")
        return clone(OctaState(**dict(data)))

    def step(self, state: OctaState) -> str:
        return state.step

    def describe_step(self, state: OctaState) -> str:
        return step_description(state)


ENGINE = OctaEngine()
