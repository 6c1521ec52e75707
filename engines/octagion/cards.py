"""Octagion's physical components as data: the deck, Countdown Cards, Word Cards, Treatment Cards.

Every value here marked (reconstruction) fills a gap in the published rules
(``shared/rules/octagion.md``); change the data, not the logic, to correct it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from pathlib import Path

NUMBERS = tuple(range(1, 9))
WORD_LENGTH = 8

# (reconstruction) The 48-card deck: for each number, the six letters printed with it.
DECK_TABLE: dict[int, str] = {
    1: "ACEFGI",
    2: "AEGOSY",
    3: "ABENPR",
    4: "AEIORU",
    5: "DEIMST",
    6: "DILNRS",
    7: "CNRSTV",
    8: "EHLNOT",
}
DECK: tuple[str, ...] = tuple(f"{letter}{number}" for number, letters in DECK_TABLE.items() for letter in letters)
DECK_SET = frozenset(DECK)

TREATMENT = "*"  # a Treatment Card in a variant: a wildcard with no number
MAX_TREATMENT_CARDS = 5
STANDARD_TREATMENT_CARDS = 3


@dataclass(frozen=True)
class CountdownCard:
    """A red Countdown Card: the round's time, its difficulty level and the Delta offset."""

    index: int  # 0..14, the card's identity in a stack
    seconds: int
    level: int  # 1 = easiest (longest times) .. 3 = hardest
    offset: int  # added to a letter card's number to pick a word (Rule Delta)

    @property
    def clock(self) -> str:
        return f"{self.seconds // 60}:{self.seconds % 60:02d}"


# (reconstruction) 15 cards, 0:45 .. 1:55 in 5 s steps; 5 per level; each level carries every
# offset once. Which time carries which offset is our choice.
_COUNTDOWN_ROWS = (
    # seconds, level, offset
    (115, 1, 24),
    (110, 1, 8),
    (105, 1, 32),
    (100, 1, 0),
    (95, 1, 16),
    (90, 2, 16),
    (85, 2, 0),
    (80, 2, 32),
    (75, 2, 24),
    (70, 2, 8),
    (65, 3, 0),
    (60, 3, 24),
    (55, 3, 8),
    (50, 3, 16),
    (45, 3, 32),
)
COUNTDOWN_CARDS: tuple[CountdownCard, ...] = tuple(
    CountdownCard(index, seconds, level, offset) for index, (seconds, level, offset) in enumerate(_COUNTDOWN_ROWS)
)
# Gamma difficulty: which Countdown levels go into the stack.
GAMMA_LEVELS: dict[str, tuple[int, ...]] = {"easy": (1, 2), "standard": (1, 2, 3), "hard": (2, 3)}

# Word Cards: 13 green cards A..M of 40 words each. (reconstruction) The printed cards are not
# public: they were dealt once from the word list by a seeded shuffle (the seeds below) and are
# kept as data in ``word_cards.json``, so "B17" always means the same word; when the list loses a
# word, only that entry is refilled (scripts/make_octagion_words.py).
WORD_CARD_NAMES = "ABCDEFGHIJKLM"
WORDS_PER_CARD = 40
WORD_CARD_SEED = "octagion-word-cards-v1"
ZETA_WORD_CARD_SEED = "octagion-zeta-word-cards-v1"

WORDS_FILE = Path(__file__).with_name("words.txt")
WORD_CARDS_FILE = Path(__file__).with_name("word_cards.json")

# Editions of the Word Cards. Edition 1: the cards as first dealt. Each later edition replaced some
# entries (words few families know, reviewed in ``card_word_review.txt``); the retired-cards table
# ``retired_word_cards.json`` keeps, per edition, the words it took off the cards, so a game dealt
# from an earlier edition still reads and replays with its words, and new games never deal them.
# Each edition also names the first Daily puzzle day dealt from it.
FIRST_WORD_CARDS_EDITION = 1
WORD_CARDS_EDITION = 2  # what new games deal from
RETIRED_WORD_CARDS_FILE = Path(__file__).with_name("retired_word_cards.json")


@lru_cache(maxsize=1)
def word_solutions() -> dict[str, int]:
    """The shipped list of common, family-friendly 8-letter words (lowercase), each with its number
    of solutions in the deck, counted when the list was generated (0: it does not conform)."""
    pairs = (line.split() for line in WORDS_FILE.read_text(encoding="ascii").splitlines() if line.strip())
    return {word: int(count) for word, count in pairs}


def word_list() -> tuple[str, ...]:
    return tuple(word_solutions())


@lru_cache(maxsize=1)
def _card_sets() -> dict[str, dict[str, tuple[str, ...]]]:
    data = json.loads(WORD_CARDS_FILE.read_text(encoding="ascii"))
    return {deck: {name: tuple(words) for name, words in cards.items()} for deck, cards in data.items()}


def word_cards(zeta: bool = False) -> dict[str, tuple[str, ...]]:
    """Word Cards A..M, 40 upper-case words each.

    Standard cards hold conforming words only. Under Rule Zeta words need not conform, so the
    Zeta cards come from the whole list (a separate, equally fixed set).
    """
    return _card_sets()["zeta" if zeta else "standard"]


@dataclass(frozen=True)
class RetiredEntries:
    """The Word Card entries one edition replaced: what they said before it."""

    edition: int
    daily_from: date  # the first Daily puzzle day dealt from this edition
    standard: dict[str, str]  # entry ("K13") -> the word it said before, upper case
    zeta: dict[str, str]


@lru_cache(maxsize=1)
def retired_word_cards() -> tuple[RetiredEntries, ...]:
    """The retired-cards table, oldest edition first."""
    data = json.loads(RETIRED_WORD_CARDS_FILE.read_text(encoding="ascii"))
    editions = (
        RetiredEntries(int(edition), date.fromisoformat(entry["daily_from"]), entry["standard"], entry["zeta"])
        for edition, entry in data.items()
    )
    return tuple(sorted(editions, key=lambda retired: retired.edition))


def word_at(card: str, position: int, zeta: bool = False, edition: int = WORD_CARDS_EDITION) -> str:
    """The word ``position`` (1..40) of Word Card ``card`` ("B", 17 -> word B17) in the cards of
    ``edition``: the word the first later edition retired from that entry, if one did."""
    ref = f"{card}{position}"
    for retired in retired_word_cards():
        if retired.edition > edition and ref in (retired.zeta if zeta else retired.standard):
            return (retired.zeta if zeta else retired.standard)[ref]
    return word_cards(zeta)[card][position - 1]


def daily_edition(day: date) -> int:
    """The edition of the Word Cards the Daily puzzle of ``day`` is dealt from."""
    editions = [retired.edition for retired in retired_word_cards() if retired.daily_from <= day]
    return max(editions, default=FIRST_WORD_CARDS_EDITION)
