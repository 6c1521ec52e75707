"""Octagion's Word Cards avoid words few families know (decision "Entering a variant (2026-11-27)",
shared/rules/octagion.md): a common-word frequency list decides, with the reviewed exceptions of
engines/octagion/card_word_review.txt; games dealt a retired entry keep its word.

The frequency list is wordfreq's (a dev dependency: read here and when the cards are reviewed,
never at play time).
"""

from __future__ import annotations

import pytest
from wordfreq import zipf_frequency

from engines.octagion import ENGINE
from engines.octagion.cards import (
    FIRST_WORD_CARDS_EDITION,
    RETIRED_WORD_CARDS_FILE,
    WORD_CARD_NAMES,
    WORD_CARDS_EDITION,
    retired_word_cards,
    word_at,
    word_cards,
    word_solutions,
)

REVIEW_FILE = RETIRED_WORD_CARDS_FILE.with_name("card_word_review.txt")
# Once per million words of text: below this a word is too rare for a family game, unless reviewed.
COMMON_ZIPF = 3.0
NAMED_IN_THE_ISSUE = {"K13": "INNUENDO", "D34": "INASMUCH"}  # standard cards
NAMED_ON_THE_ZETA_CARDS = {"K28": "PEDAGOGY"}
FEW_FAMILIES_KNOW = ("consular", "environs", "credence", "preclude", "nepotism", "suffrage", "vertices")


def review() -> tuple[set[str], set[str]]:
    """The review's retired words and its exceptions (kept although rare), lower case."""
    lines = REVIEW_FILE.read_text(encoding="utf-8").splitlines()
    entries = [line.split("#", 1)[0].strip() for line in lines]
    retired = {entry for entry in entries if entry and not entry.startswith("!")}
    kept = {entry[1:] for entry in entries if entry.startswith("!")}
    return retired, kept


def dealt(zeta: bool) -> dict[str, str]:
    """Every entry of the current cards ("K13") and its word, lower case."""
    return {
        f"{card}{position}": word.lower()
        for card, words in word_cards(zeta).items()
        for position, word in enumerate(words, 1)
    }


def zipf(word: str) -> float:
    return zipf_frequency(word, "en")


# ---------------------------------------------------------------- the cards and the review


@pytest.mark.parametrize("zeta", [False, True], ids=["standard", "zeta"])
def test_every_dealt_word_is_common_or_a_reviewed_exception(zeta):
    _, kept = review()
    rare = {ref: word for ref, word in dealt(zeta).items() if zipf(word) < COMMON_ZIPF and word not in kept}
    assert rare == {}


@pytest.mark.parametrize("zeta", [False, True], ids=["standard", "zeta"])
def test_no_dealt_word_is_retired(zeta):
    retired, _ = review()
    tables = [entry.zeta if zeta else entry.standard for entry in retired_word_cards()]
    table = {word.lower() for refs in tables for word in refs.values()}
    words = set(dealt(zeta).values())
    assert words & retired == set()
    assert words & table == set()


def test_the_words_named_in_the_issue_are_gone_from_every_card():
    everywhere = set(dealt(False).values()) | set(dealt(True).values())
    named = {word.lower() for word in (*NAMED_IN_THE_ISSUE.values(), *NAMED_ON_THE_ZETA_CARDS.values())}
    assert everywhere & (named | set(FEW_FAMILIES_KNOW)) == set()
    retired, _ = review()
    assert named | set(FEW_FAMILIES_KNOW) <= retired  # a later refill cannot bring them back


def test_every_retired_word_is_rare_or_reviewed():
    retired, _ = review()
    for entry in retired_word_cards():
        for word in [*entry.standard.values(), *entry.zeta.values()]:
            assert zipf(word.lower()) < COMMON_ZIPF or word.lower() in retired, word


def test_the_reviewed_exceptions_are_rare_words_on_the_cards():
    """An exception is needed only for a word the frequency list would refuse."""
    retired, kept = review()
    assert kept
    assert kept & retired == set()
    on_cards = set(dealt(False).values()) | set(dealt(True).values())
    for word in kept:
        assert zipf(word) < COMMON_ZIPF, word
        assert word in on_cards, word


def test_replacements_fit_the_cards():
    """8 letters, in the list, conforming on a standard card, once per deck (the other card tests
    check the whole deck; these are the entries this review changed)."""
    counts = word_solutions()
    for entry in retired_word_cards():
        for zeta, refs in ((False, entry.standard), (True, entry.zeta)):
            for ref in refs:
                word = word_at(ref[0], int(ref[1:]), zeta).lower()
                assert len(word) == 8
                assert word in counts
                assert zeta or counts[word] > 0


# ---------------------------------------------------------------- the retired-cards table


def test_the_table_keeps_what_each_retired_entry_said():
    (entry,) = [entry for entry in retired_word_cards() if entry.edition == WORD_CARDS_EDITION]
    assert max(retired.edition for retired in retired_word_cards()) == WORD_CARDS_EDITION
    assert NAMED_IN_THE_ISSUE.items() <= entry.standard.items()
    assert NAMED_ON_THE_ZETA_CARDS.items() <= entry.zeta.items()
    for zeta, refs in ((False, entry.standard), (True, entry.zeta)):
        for ref, old in refs.items():
            assert ref[0] in WORD_CARD_NAMES
            assert 1 <= int(ref[1:]) <= 40
            assert word_at(ref[0], int(ref[1:]), zeta, edition=FIRST_WORD_CARDS_EDITION) == old
            assert word_at(ref[0], int(ref[1:]), zeta) != old


def test_entries_no_edition_replaced_read_the_same_in_every_edition():
    replaced = {ref for entry in retired_word_cards() for ref in entry.standard}
    for card in WORD_CARD_NAMES:
        for position in range(1, 41):
            if f"{card}{position}" not in replaced:
                assert word_at(card, position, edition=FIRST_WORD_CARDS_EDITION) == word_at(card, position)


def first_round_refs(edition: int, zeta: bool) -> dict[int, str]:
    """For each seed that deals a retired entry in the first round: that entry."""
    (entry,) = [entry for entry in retired_word_cards() if entry.edition == WORD_CARDS_EDITION]
    retired = entry.zeta if zeta else entry.standard
    options = {"word_cards": edition, "variation": "zeta" if zeta else "none"}
    found = {}
    for seed in range(2000):
        ref = ENGINE.new_game(1, options, seed).word_refs[0]
        if ref in retired:
            found[seed] = ref
    return found


@pytest.mark.parametrize("zeta", [False, True], ids=["standard", "zeta"])
def test_a_stored_game_dealt_a_retired_entry_loads_and_replays_with_its_word(zeta):
    options = {"variation": "zeta"} if zeta else {}
    seed, ref = next(iter(first_round_refs(FIRST_WORD_CARDS_EDITION, zeta).items()))
    old_word = word_at(ref[0], int(ref[1:]), zeta, edition=FIRST_WORD_CARDS_EDITION)
    # What the engine stored before the cards had editions: schema 2, no edition in the options.
    played = ENGINE.new_game(1, {**options, "word_cards": FIRST_WORD_CARDS_EDITION}, seed)
    actions = [(0, {"type": "end_round", "reason": "timer"})]  # the round with the retired word, scored
    for seat, action in actions:
        played = ENGINE.apply(played, seat, action)
    stored = ENGINE.dump(played)
    stored["schema"] = 2
    stored["options"] = {key: value for key, value in stored["options"].items() if key != "word_cards"}

    loaded = ENGINE.load(stored)
    assert (loaded.word_refs, loaded.words) == ([ref], [old_word])
    replayed = ENGINE.replay(1, ENGINE.replay_options(loaded, options), seed, actions)
    assert (replayed.word_refs, replayed.words) == ([ref], [old_word])
    assert {**ENGINE.dump(replayed), "events": []} == {**ENGINE.dump(loaded), "events": []}

    new = ENGINE.new_game(1, options, seed)  # the same deal in a new game: the entry's new word
    assert new.word_refs == [ref]
    assert new.words == [word_at(ref[0], int(ref[1:]), zeta)] != [old_word]


def test_new_games_never_deal_a_retired_word():
    (entry,) = [entry for entry in retired_word_cards() if entry.edition == WORD_CARDS_EDITION]
    for zeta, retired in ((False, entry.standard), (True, entry.zeta)):
        seeds = first_round_refs(WORD_CARDS_EDITION, zeta)
        assert seeds, "the deal still picks the replaced entries"
        options = {"variation": "zeta"} if zeta else {}
        for seed in seeds:
            assert ENGINE.new_game(1, options, seed).words[0] not in retired.values()


def test_an_unknown_edition_is_refused():
    with pytest.raises(ValueError, match="word_cards"):
        ENGINE.new_game(1, {"word_cards": WORD_CARDS_EDITION + 1}, 0)
