"""Cards, runs and the pool's geometry for Octa: pure helpers with no game state.

A card is a code string: rank then suit, e.g. ``"7H"``, ``"10S"``, ``"AD"``, ``"QC"``. Both decks
are identical, so each code exists twice; zones hold codes and the accounting checks the
multiset (every code exactly twice across all zones).

Rank *values* on a run: a low Ace is 1, 2..10 are themselves, a high Ace is 11 (9-10-A).
"""

from __future__ import annotations

from collections import Counter

SUITS = ("S", "H", "D", "C")
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
NUMBER_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")
ACTION_RANKS = ("J", "Q", "K")
ACTION_NAMES = {"J": "jack", "Q": "queen", "K": "king"}
DECKS = 2

LOW_ACE, HIGH_ACE = 1, 11
OCTA_LENGTH = 8
WIN_TABLE_CARDS = 28
MIN_RUN = 3

NUMBER_CARDS = tuple(rank + suit for suit in SUITS for rank in NUMBER_RANKS)
ACTION_CARDS = tuple(rank + suit for suit in SUITS for rank in ACTION_RANKS)
FULL_DECK = Counter({code: DECKS for code in NUMBER_CARDS + ACTION_CARDS})

# Pool positions 1..8 in reading order around the empty centre of a 3 x 3 rectangle.
POSITION_CELLS = {1: (0, 0), 2: (0, 1), 3: (0, 2), 4: (1, 0), 5: (1, 2), 6: (2, 0), 7: (2, 1), 8: (2, 2)}
CELL_POSITIONS = {cell: position for position, cell in POSITION_CELLS.items()}
# The only lines of 3 that avoid the empty centre; also the lines Option B may take.
POOL_LINES = {"top": (1, 2, 3), "bottom": (6, 7, 8), "left": (1, 4, 6), "right": (3, 5, 8)}


def suit_of(code: str) -> str:
    return code[-1]


def rank_of(code: str) -> str:
    return code[:-1]


def is_number_card(code: str) -> bool:
    return rank_of(code) in NUMBER_RANKS and suit_of(code) in SUITS


def card_values(code: str) -> tuple[int, ...]:
    """The run values a number card can take (an Ace is low or high)."""
    rank = rank_of(code)
    return (LOW_ACE, HIGH_ACE) if rank == "A" else (int(rank),)


def code_for(value: int, suit: str) -> str:
    return ("A" if value in (LOW_ACE, HIGH_ACE) else str(value)) + suit


def card_name(code: str) -> str:
    return rank_of(code) + SUIT_SYMBOLS.get(suit_of(code), "?")


def valid_interval(start: int, end: int) -> bool:
    """A run covers start..end: within A(low)..A(high), never using both Aces, no wrap."""
    return LOW_ACE <= start <= end <= HIGH_ACE and not (start == LOW_ACE and end == HIGH_ACE)


def run_start_for(cards: list[str]) -> int | None:
    """The start value if ``cards`` (any order) form one run of 3+, else None."""
    if len(cards) < MIN_RUN or not all(is_number_card(c) for c in cards):
        return None
    if len({suit_of(c) for c in cards}) != 1:
        return None
    for ace_value in (LOW_ACE, HIGH_ACE):
        values = sorted(ace_value if rank_of(c) == "A" else int(rank_of(c)) for c in cards)
        consecutive = values == list(range(values[0], values[0] + len(values)))
        if consecutive and valid_interval(values[0], values[-1]):
            return values[0]
    return None


def extension_side(run_start: int, run_end: int, suit: str, cards: list[str]) -> str | None:
    """'high' or 'low' if ``cards`` extend the run start..end at one end without gaps, else None."""
    if not cards or not all(is_number_card(c) and suit_of(c) == suit for c in cards):
        return None
    n = len(cards)
    high = list(range(run_end + 1, run_end + 1 + n))
    low = list(range(run_start - n, run_start))
    for side, wanted, new_start, new_end in (
        ("high", high, run_start, run_end + n),
        ("low", low, run_start - n, run_end),
    ):
        if not valid_interval(new_start, new_end):
            continue
        if Counter(code_for(v, suit) for v in wanted) == Counter(cards):
            return side
    return None


def line_is_run(cards: list[str | None]) -> bool:
    """Three pool cards in reading order form an ascending run of one suit."""
    present = [c for c in cards if c is not None]
    if len(present) != len(cards):
        return False
    first, middle, last = present
    if len({suit_of(first), suit_of(middle), suit_of(last)}) != 1:
        return False
    for v0 in card_values(first):
        if v0 == HIGH_ACE:
            continue
        if v0 + 1 in card_values(middle) and v0 + 2 in card_values(last) and valid_interval(v0, v0 + 2):
            return True
    return False


def _neighbours(position: int) -> tuple[int, ...]:
    row, col = POSITION_CELLS[position]
    cells = ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
    return tuple(CELL_POSITIONS[cell] for cell in cells if cell in CELL_POSITIONS)


POOL_NEIGHBOURS = {position: _neighbours(position) for position in POSITION_CELLS}


def pool_neighbours(position: int) -> tuple[int, ...]:
    """Orthogonal neighbours among the 8 pool positions (the centre holds no card)."""
    return POOL_NEIGHBOURS[position]


def ranks_touch(a: str, b: str) -> bool:
    """Same suit and one rank apart (an Ace touches a 2 and a 10)."""
    if suit_of(a) != suit_of(b):
        return False
    return any(abs(x - y) == 1 for x in card_values(a) for y in card_values(b))


def hand_runs(hand: list[str]) -> list[list[str]]:
    """Every run of 3+ that can be laid from ``hand`` (each distinct card set once)."""
    found: list[list[str]] = []
    for suit in SUITS:
        values = {v for c in hand if suit_of(c) == suit and is_number_card(c) for v in card_values(c)}
        for start in range(LOW_ACE, HIGH_ACE + 1):
            end = start
            while end in values and valid_interval(start, end):
                if end - start + 1 >= MIN_RUN:
                    found.append([code_for(v, suit) for v in range(start, end + 1)])
                end += 1
    return found
