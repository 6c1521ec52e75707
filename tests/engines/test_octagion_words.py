"""Octagion's Word Cards are family-friendly (decision "Words (2026-11-23)", shared/rules/octagion.md).

The reviewed blocklist and the maintained offensive-word list are the files that
scripts/make_octagion_words.py filters with; these tests read the same files.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from fnmatch import fnmatchcase
from pathlib import Path

import pytest

from engines.octagion.cards import WORD_CARD_NAMES, WORDS_FILE, word_cards, word_solutions

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "make_octagion_words.py"
# Found by the issue on the standard cards, the Zeta cards and in the list.
NAMED_IN_THE_ISSUE = (
    "infidels",
    "someones",
    "cocktail",
    "fingered",
    "harassed",
    "savagery",
    "imbecile",
    "crippled",
    "thatcher",
)


def _load_script():
    spec = importlib.util.spec_from_file_location("make_octagion_words", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


words_script = _load_script()
FAMILY = words_script.FamilyFilter.load()


def card_words(zeta: bool) -> list[str]:
    return [word.lower() for words in word_cards(zeta).values() for word in words]


def blocked(words) -> dict[str, str]:
    return {word: FAMILY.reason(word) for word in words if not FAMILY.allows(word)}


# ---------------------------------------------------------------- the shipped list and cards


def test_the_word_list_file_is_sorted_unique_words_with_solution_counts():
    text = WORDS_FILE.read_text(encoding="ascii")
    lines = text.splitlines()
    assert text.endswith("\n")
    assert all(re.fullmatch(r"[a-z]{8} (0|[1-9][0-9]*)", line) for line in lines)
    words = [line.split()[0] for line in lines]
    assert words == sorted(set(words))
    assert list(word_solutions()) == words


def test_no_listed_word_is_blocked():
    assert blocked(word_solutions()) == {}


@pytest.mark.parametrize("zeta", [False, True], ids=["standard", "zeta"])
def test_no_card_word_is_blocked(zeta):
    assert blocked(card_words(zeta)) == {}


@pytest.mark.parametrize("zeta", [False, True], ids=["standard", "zeta"])
def test_no_card_word_is_an_offensive_list_entry_or_a_blocklisted_word(zeta):
    """Whole-word check straight from the two files, without the script's matching."""
    offensive = {re.sub(r"[^a-z]", "", entry) for entry in words_script.entries(words_script.OFFENSIVE_WORDS_FILE)}
    listed = {entry for entry in words_script.entries(words_script.BLOCKLIST_FILE) if entry.isalpha()}
    everywhere = set(card_words(zeta)) | set(word_solutions())
    assert everywhere & offensive == set()
    assert everywhere & listed == set()


def test_the_words_named_in_the_issue_are_gone_and_stay_blocked():
    everywhere = set(word_solutions()) | set(card_words(False)) | set(card_words(True))
    assert everywhere.isdisjoint(NAMED_IN_THE_ISSUE)
    assert all(not FAMILY.allows(word) for word in NAMED_IN_THE_ISSUE)  # a regeneration cannot bring them back


@pytest.mark.parametrize("zeta", [False, True], ids=["standard", "zeta"])
def test_the_cards_are_13_of_40_distinct_8_letter_words(zeta):
    cards = word_cards(zeta)
    assert list(cards) == list(WORD_CARD_NAMES)
    assert all(len(words) == 40 for words in cards.values())
    everything = [word for words in cards.values() for word in words]
    assert len(set(everything)) == len(WORD_CARD_NAMES) * 40
    assert all(re.fullmatch(r"[A-Z]{8}", word) for word in everything)
    if not zeta:
        assert all(word_solutions()[word.lower()] > 0 for word in everything)


def test_the_list_leaves_enough_words_for_both_decks():
    conforming = [word for word, count in word_solutions().items() if count]
    assert len(conforming) >= words_script.CARD_WORDS
    assert len(word_solutions()) >= words_script.CARD_WORDS


# ---------------------------------------------------------------- the blocklist file


def test_the_blocklist_entries_are_grouped_words_patterns_or_reviewed_exceptions():
    lines = words_script.BLOCKLIST_FILE.read_text(encoding="utf-8").splitlines()
    entries = words_script.entries(words_script.BLOCKLIST_FILE)
    assert len(entries) == len(set(entries))
    for entry in entries:
        assert re.fullmatch(r"!?[a-z]{8}|[a-z]*\*[a-z*]*", entry), entry
    first_entry = next(number for number, line in enumerate(lines) if line and not line.startswith("#"))
    assert lines[first_entry - 1].startswith("# ---")  # every entry sits under a reason heading


def test_whole_words_are_not_also_caught_by_a_pattern():
    redundant = [word for word in FAMILY.blocked_words if any(fnmatchcase(word, p) for p in FAMILY.patterns)]
    assert redundant == []


def test_each_reviewed_exception_rescues_a_word_that_would_otherwise_be_blocked():
    strict = words_script.FamilyFilter(
        blocked_words=FAMILY.blocked_words,
        patterns=FAMILY.patterns,
        allowed=frozenset(),
        offensive_words=FAMILY.offensive_words,
        offensive_bases=FAMILY.offensive_bases,
    )
    assert FAMILY.allowed
    for word in FAMILY.allowed:
        assert FAMILY.allows(word)
        assert not strict.allows(word), word


def test_the_offensive_word_list_is_vendored_with_its_attribution():
    text = words_script.OFFENSIVE_WORDS_FILE.read_text(encoding="utf-8")
    assert "List of Dirty, Naughty, Obscene, and Otherwise Bad Words" in text
    assert "CC BY 4.0" in text
    assert len(words_script.entries(words_script.OFFENSIVE_WORDS_FILE)) > 300


# ---------------------------------------------------------------- the filter's matching


def family_with(tmp_path, blocklist: str):
    path = tmp_path / "blocklist.txt"
    path.write_text(blocklist, encoding="utf-8")
    return words_script.FamilyFilter.load(blocklist=path)


def test_forms_of_offensive_list_entries_are_blocked_but_words_containing_one_are_not(tmp_path):
    family = family_with(tmp_path, "")
    assert not family.allows("fingered")  # the list has "fingering"
    assert not family.allows("snatched")  # the list has "snatch"
    assert family.allows("analysis")  # entries are whole words, not substrings
    assert family.allows("bulletin")


def test_a_reviewed_exception_never_admits_an_entry_of_the_offensive_list(tmp_path):
    family = family_with(tmp_path, "!scissors\n!scissoring\n")
    assert family.allows("scissors")
    assert not family.allows("scissoring")


def test_patterns_block_what_they_match_except_reviewed_exceptions(tmp_path):
    family = family_with(tmp_path, "# --- a group\n*dead*   # a comment\n!deadline\nsomeones\n")
    assert not family.allows("deadened")
    assert family.allows("deadline")
    assert not family.allows("someones")
    assert family.allows("someone")


def test_card_entries_keep_their_words_when_the_list_changes():
    """The cards are data: entries whose word stayed in the list kept it through the family
    filter (stored games and records name words as "C25"); every card word is in the list, and a
    standard card's words can all be spelt."""
    from engines.octagion.cards import word_at, word_cards, word_solutions

    assert (word_at("C", 25), word_at("B", 28)) == ("CASHMERE", "TROMBONE")
    counts = word_solutions()
    for zeta in (False, True):
        for words in word_cards(zeta).values():
            assert all(word.lower() in counts for word in words)
            assert zeta or all(counts[word.lower()] for word in words)
