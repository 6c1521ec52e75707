"""Which words the deck can spell, and how.

A position needs a card carrying its letter, and the eight cards must carry eight different
numbers: a perfect matching of positions to numbers. Letter -> numbers is a bitmask, so a
word is eight masks and the solutions are counted by a DP over positions with a bitmask of
numbers already used (at most 256 states). The count does not depend on letter order, so it
is cached by the word's sorted letters.
"""

from __future__ import annotations

from functools import lru_cache

from .cards import DECK_TABLE, NUMBERS, TREATMENT, WORD_LENGTH

# letter -> bitmask of the numbers it appears with (bit n-1 for number n)
LETTER_MASKS: dict[str, int] = {}
for _number, _letters in DECK_TABLE.items():
    for _letter in _letters:
        LETTER_MASKS[_letter] = LETTER_MASKS.get(_letter, 0) | 1 << (_number - 1)

_FULL = (1 << len(NUMBERS)) - 1


def numbers_for(letter: str) -> list[int]:
    """The numbers the deck prints with ``letter`` (empty if no card has it)."""
    mask = LETTER_MASKS.get(letter.upper(), 0)
    return [number for number in NUMBERS if mask >> (number - 1) & 1]


def _masks(word: str) -> list[int]:
    return [LETTER_MASKS.get(letter, 0) for letter in word.upper()]


@lru_cache(maxsize=8192)
def _count_sorted(letters: str) -> int:
    masks = _masks(letters)
    if len(masks) != WORD_LENGTH or not all(masks):
        return 0
    ways = {0: 1}
    for mask in masks:
        following: dict[int, int] = {}
        for used, count in ways.items():
            free = mask & ~used
            while free:
                bit = free & -free
                free ^= bit
                following[used | bit] = following.get(used | bit, 0) + count
        if not following:
            return 0
        ways = following
    return ways.get(_FULL, 0)


def solution_count(word: str) -> int:
    """How many distinct solutions (numbers assigned to positions) spell ``word``."""
    return _count_sorted("".join(sorted(word.upper())))


def conforms(word: str) -> bool:
    """Whether the deck spells ``word`` with eight cards of eight different numbers."""
    return solution_count(word) > 0


def _max_matching(word: str) -> list[int | None]:
    """Number per position of a maximum matching (None for unmatched); smallest numbers first."""
    masks = _masks(word)
    owner: dict[int, int] = {}  # number -> position

    def augment(position: int, seen: set[int]) -> bool:
        for number in NUMBERS:
            if masks[position] >> (number - 1) & 1 and number not in seen:
                seen.add(number)
                if number not in owner or augment(owner[number], seen):
                    owner[number] = position
                    return True
        return False

    for position in range(len(masks)):
        augment(position, set())
    assigned: list[int | None] = [None] * len(masks)
    for number, position in owner.items():
        assigned[position] = number
    return assigned


def solution(word: str) -> list[str] | None:
    """One solution as 8 card names (e.g. ["S5", "T7", ...]), or None if the word does not conform."""
    if not conforms(word):
        return None
    return [f"{letter}{number}" for letter, number in zip(word.upper(), _max_matching(word), strict=True)]


def best_variant(word: str) -> list[str]:
    """A variant with as few Treatment Cards as possible ("*" where no distinct number is left).

    For a conforming word this is a solution; for a non-conforming one (Rule Zeta) it shows how
    many Treatment Cards it needs.
    """
    return [
        TREATMENT if number is None else f"{letter}{number}"
        for letter, number in zip(word.upper(), _max_matching(word), strict=True)
    ]


def treatment_cards_needed(word: str) -> int:
    return best_variant(word).count(TREATMENT)


def clear_cache() -> None:
    """Forget cached counts (for benchmarks that time a cold check of the word list)."""
    _count_sorted.cache_clear()
