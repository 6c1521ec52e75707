"""A typed card with more than one digit ("S55") is one bad card, left empty and named (the
2026-11-27 decision), not S5 followed by a stray 5 that pushed the answer past eight positions
and had it refused whole (issue 36, item 7)."""

from __future__ import annotations

import pytest

from engines.octagion.rules import read_variant
from tests.engines.test_octagion_party import answer, party_of_three
from tests.engines.test_octagion_rules import STRANGER

FULL = "S5 T8 R6 A1 N7 G2 E4 R3"  # STRANGER, one card a position


@pytest.mark.parametrize("bad", ["S55", "S50", "S512", "S0", "S9"])
def test_a_card_with_any_digits_not_in_the_deck_leaves_only_its_position_empty(bad):
    read = read_variant(FULL.replace("S5", bad, 1), STRANGER)
    assert read.cells == [None, "T8", "R6", "A1", "N7", "G2", "E4", "R3"]
    assert read.left_empty == [f"{bad} is not a card (card numbers go from 1 to 8): left position 1 empty"]


def test_cards_typed_without_spaces_and_bare_numbers_still_read_one_a_position():
    assert read_variant("S5T8R6A1N7G2E4R3", STRANGER).cells == FULL.split()
    assert read_variant("58617243", STRANGER).cells == FULL.split()
    assert read_variant("S55T8", STRANGER).cells[:2] == [None, "T8"]


def test_in_party_mode_a_long_card_is_left_empty_and_the_members_other_card_kept():
    state = answer(party_of_three(), 2, "S55 T8")  # seat 2 places the cards numbered 7 and 8
    assert state.variants[0][:2] == [None, "T8"]


def test_a_letter_and_its_number_apart_are_still_one_card():
    assert read_variant("S 5, T 8", STRANGER).cells[:2] == ["S5", "T8"]
