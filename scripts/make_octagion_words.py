"""Generate ``engines/octagion/words.txt``: common, family-friendly 8-letter English words.

Run by a developer (never at bot run time), from the repository root::

    python scripts/make_octagion_words.py --filter    # re-filter the shipped list (no SCOWL needed)
    python scripts/make_octagion_words.py --annotate  # recount the solutions (after a deck correction)
    python scripts/make_octagion_words.py             # regenerate from SCOWL:
    #   apt-get install -y scowl   (Debian's SCOWL lists in /usr/share/dict/scowl)
    #   pip install wordfreq       (ranking only; not a runtime dependency)

Source: SCOWL sizes 10, 20 and 35 (english + american), plain lowercase a-z words of 8 letters,
ranked by wordfreq's Zipf frequency. Family-friendly (decision "Words (2026-11-23)" in
shared/rules/octagion.md): a word is dropped when the reviewed blocklist
``scripts/octagion_blocklist.txt`` blocks it (whole words and patterns, grouped by reason) or when
it is a form of an entry of the maintained offensive-word list ``scripts/ldnoobw_en.txt`` (LDNOOBW,
CC BY 4.0). The most frequent ``KEEP`` survivors are written alphabetically, one per line, each with
its number of solutions in the deck (0: the word does not conform), so the bot never checks the
whole list at run time. ``--filter`` applies the same filter to the shipped list and keeps its
counts (filtering does not change them).

Every mode then refreshes the Word Cards, ``engines/octagion/word_cards.json``: each card keeps
its words, and only an entry whose word left the list gets a new one (the next word of the
card set's seeded order that is on no card), so "B17" names the same word across releases.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent
OUTPUT = SCRIPTS.parent / "engines" / "octagion" / "words.txt"
CARDS_OUTPUT = OUTPUT.with_name("word_cards.json")
BLOCKLIST_FILE = SCRIPTS / "octagion_blocklist.txt"
OFFENSIVE_WORDS_FILE = SCRIPTS / "ldnoobw_en.txt"
SCOWL_DIR = Path("/usr/share/dict/scowl")
SCOWL_LISTS = [f"{kind}-words.{size}" for kind in ("english", "american") for size in (10, 20, 35)]
KEEP = 3000
MIN_ZIPF = 2.0  # below this a word is too rare for a speed game
CARD_WORDS = 13 * 40  # Word Cards A..M of 40 words: the standard and the Zeta deal each need this many

# A word and an offensive-list entry match when they share a base after one of these endings
# is cut ("fingered" and "fingering" share "finger").
INFLECTIONS = ("ing", "ers", "es", "ed", "er", "s", "d")
PATTERN_CHARS = frozenset("*?[")


def base_forms(word: str) -> set[str]:
    """The word itself and what is left after cutting each inflection it ends with."""
    return {word} | {word[: -len(ending)] for ending in INFLECTIONS if word.endswith(ending)}


def entries(path: Path) -> list[str]:
    """The lower-cased entries of a list file, without comments and blank lines."""
    lines = (line.split("#", 1)[0].strip().lower() for line in path.read_text(encoding="utf-8").splitlines())
    return [line for line in lines if line]


@dataclass(frozen=True)
class FamilyFilter:
    """Which words the Word Cards may not use: the reviewed blocklist plus the offensive-word list."""

    blocked_words: frozenset[str]
    patterns: tuple[str, ...]
    allowed: frozenset[str]  # reviewed harmless words that a pattern or an inflection match would catch
    offensive_words: frozenset[str]  # the list's entries as written: these always block
    offensive_bases: frozenset[str]

    @classmethod
    def load(cls, blocklist: Path = BLOCKLIST_FILE, offensive_list: Path = OFFENSIVE_WORDS_FILE) -> FamilyFilter:
        listed = entries(blocklist)
        # Multi-word entries ("hard core") are compared with their spaces and hyphens removed.
        offensive = frozenset(filter(None, (re.sub(r"[^a-z]", "", entry) for entry in entries(offensive_list))))
        return cls(
            blocked_words=frozenset(e for e in listed if not e.startswith("!") and not PATTERN_CHARS & set(e)),
            patterns=tuple(e for e in listed if PATTERN_CHARS & set(e)),
            allowed=frozenset(e[1:] for e in listed if e.startswith("!")),
            offensive_words=offensive,
            offensive_bases=frozenset(base for entry in offensive for base in base_forms(entry)),
        )

    def reason(self, word: str) -> str | None:
        """Why ``word`` (lower case) is blocked, or None when the cards may use it."""
        if word in self.blocked_words:
            return "blocklist"
        if word in self.offensive_words:
            return "offensive-word list"
        if word in self.allowed:
            return None
        for pattern in self.patterns:
            if fnmatchcase(word, pattern):
                return f"blocklist pattern {pattern}"
        shared = base_forms(word) & self.offensive_bases
        if shared:
            return f"a form of {min(shared)!r} on the offensive-word list"
        return None

    def allows(self, word: str) -> bool:
        return self.reason(word) is None


def read_shipped() -> dict[str, int]:
    pairs = (line.split() for line in OUTPUT.read_text(encoding="ascii").splitlines() if line.strip())
    return {word: int(count) for word, count in pairs}


def check_enough(counts: dict[str, int]) -> None:
    """Stop before writing a list too short to deal the standard and the Zeta Word Cards."""
    conforming = sum(1 for count in counts.values() if count)
    if conforming < CARD_WORDS or len(counts) < CARD_WORDS:
        raise SystemExit(f"{conforming} conforming of {len(counts)} words: the Word Cards need {CARD_WORDS} each")


def write(counts: dict[str, int]) -> None:
    """The list, alphabetically, each word with its solution count; then the Word Cards refreshed."""
    check_enough(counts)
    OUTPUT.write_text("".join(f"{word} {counts[word]}\n" for word in sorted(counts)), encoding="ascii")
    conforming = sum(1 for count in counts.values() if count)
    print(f"wrote {len(counts)} words ({conforming} conforming) to {OUTPUT}")
    write_cards(counts)


def _seeded_order(words: list[str], seed: str) -> list[str]:
    order = sorted(words)
    random.Random(seed).shuffle(order)
    return order


def refresh_cards(cards: dict[str, list[str]] | None, eligible: list[str], seed: str) -> dict[str, list[str]]:
    """Word Cards from ``eligible`` words: the cards as they are, with only the entries whose word
    left the list refilled (from the seeded order, words on no card yet), so "B17" keeps its word
    unless that word was removed. No cards yet: dealt in the seeded order."""
    sys.path.insert(0, str(SCRIPTS.parent))
    from engines.octagion.cards import WORD_CARD_NAMES, WORDS_PER_CARD

    spare = iter(_seeded_order(eligible, seed))
    if cards is None:
        return {name: [next(spare).upper() for _ in range(WORDS_PER_CARD)] for name in WORD_CARD_NAMES}
    allowed = {word.upper() for word in eligible}
    on_cards = {word for words in cards.values() for word in words if word in allowed}
    fresh = (word.upper() for word in spare if word.upper() not in on_cards)
    return {name: [word if word in allowed else next(fresh) for word in words] for name, words in cards.items()}


def write_cards(counts: dict[str, int]) -> None:
    from engines.octagion.cards import WORD_CARD_SEED, ZETA_WORD_CARD_SEED

    old = json.loads(CARDS_OUTPUT.read_text(encoding="ascii")) if CARDS_OUTPUT.exists() else {}
    conforming = [word for word, count in counts.items() if count]
    cards = {
        "standard": refresh_cards(old.get("standard"), conforming, WORD_CARD_SEED),
        "zeta": refresh_cards(old.get("zeta"), list(counts), ZETA_WORD_CARD_SEED),
    }
    CARDS_OUTPUT.write_text(json.dumps(cards, indent=1) + "\n", encoding="ascii")
    changed = sum(
        a != b
        for deck in cards
        for name in cards[deck]
        for a, b in zip(cards[deck][name], old.get(deck, {}).get(name, []), strict=False)
    )
    print(f"wrote the Word Cards to {CARDS_OUTPUT} ({changed} entries refilled)")


def recount(words: list[str]) -> dict[str, int]:
    from engines.octagion import solution_count

    return {word: solution_count(word) for word in words}


def filter_shipped(family: FamilyFilter) -> None:
    counts = read_shipped()
    for word in sorted(counts):
        reason = family.reason(word)
        if reason:
            print(f"removed {word}: {reason}")
    write({word: count for word, count in counts.items() if family.allows(word)})


def load_scowl() -> set[str]:
    words: set[str] = set()
    for name in SCOWL_LISTS:
        text = (SCOWL_DIR / name).read_bytes().decode("latin-1")
        words.update(line.strip() for line in text.splitlines() if re.fullmatch(r"[a-z]{8}", line.strip()))
    return words


def generate(family: FamilyFilter) -> None:
    from wordfreq import zipf_frequency  # generation-time only

    ranked = sorted(((zipf_frequency(word, "en"), word) for word in load_scowl() if family.allows(word)), reverse=True)
    write(recount([word for zipf, word in ranked[:KEEP] if zipf >= MIN_ZIPF]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--filter", action="store_true", help="drop blocked words from the shipped list")
    mode.add_argument("--annotate", action="store_true", help="recount the solutions of the shipped list")
    args = parser.parse_args()
    if args.annotate:
        write(recount(list(read_shipped())))
    elif args.filter:
        filter_shipped(FamilyFilter.load())
    else:
        generate(FamilyFilter.load())


if __name__ == "__main__":
    main()
