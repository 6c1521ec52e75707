"""A typed Octagion variant is read forgivingly: a position whose card does not exist, cannot be
read, is already placed or is a Treatment Card the team no longer has is left empty and named;
the rest of the variant is kept, in party mode the rest of the member's cards (issue 28, item 5)."""

from __future__ import annotations

import pytest

from engines.base import IllegalAction
from engines.octagion import ENGINE, TREATMENT, left_empty
from engines.octagion.rules import read_variant
from tests.engines.test_octagion_party import answer, party_of_three, refused
from tests.engines.test_octagion_rules import STRANGER, new, unchanged_after, with_words


def test_a_card_that_does_not_exist_is_left_empty_and_the_rest_kept():
    read = read_variant("S5 T8 R2 A1", STRANGER)
    assert read.cells == ["S5", "T8", None, "A1", None, None, None, None]
    assert read.left_empty == ["R2 is not a card (R comes as R3, R4, R6, R7): left position 3 empty"]


@pytest.mark.parametrize(
    ("text", "cells", "told"),
    [
        ("S5 ? T8", ["S5", None, "T8"], "I can't read '?': left position 2 empty"),
        ("S9 T8", [None, "T8"], "S9 is not a card (card numbers go from 1 to 8): left position 1 empty"),
        ("Z1 T8", [None, "T8"], "Z1 is not a card (no card carries the letter Z): left position 1 empty"),
        ("S5 S5 R6", ["S5", None, "R6"], "S5 is already at position 1: left position 2 empty"),
        ("* * 6", [TREATMENT, None, "R6"], "your team has only 1 Treatment Card left: left position 2 empty"),
    ],
)
def test_every_unusable_position_is_named_with_what_was_wrong(text, cells, told):
    read = read_variant(text, STRANGER, treatments_left=1)
    assert read.cells == cells + [None] * (8 - len(cells))
    assert read.left_empty == [told]


def test_a_treatment_card_the_team_does_not_have_leaves_only_its_position_empty():
    read = read_variant("* 8 6 1 7 2 4 3", STRANGER, treatments_left=0)
    assert read.cells == [None, "T8", "R6", "A1", "N7", "G2", "E4", "R3"]
    assert read.left_empty == ["your team has no Treatment Cards left: left position 1 empty"]


def test_a_good_answer_leaves_nothing_empty():
    assert read_variant("5 8 6 1 7 2 4 3", STRANGER).left_empty == []
    assert read_variant("_ _ 6", STRANGER) == read_variant("_ _ R6", STRANGER)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("hello", "I can't read 'HEL': write cards like S5, a number, * or _"),
        ("Z1", "there is no Z1 in the deck: no card carries the letter Z"),
        ("S5 T8 R6 A1 N7 G2 E4 R3 E8", "a variant has at most 8 positions; you gave 9"),
    ],
)
def test_an_answer_with_nothing_to_keep_is_refused_with_its_reason(text, reason):
    with pytest.raises(IllegalAction) as error:
        read_variant(text, STRANGER, treatments_left=1)
    assert str(error.value) == reason


def test_the_engine_keeps_the_rest_of_a_typed_variant_and_tells_what_it_left_empty():
    state = with_words(new(2, treatment=0), STRANGER)
    state = ENGINE.apply(state, 0, {"type": "set_variant", "text": "* 8 R2 1"})
    assert state.variants[0] == [None, "T8", None, "A1", None, None, None, None]
    assert left_empty(state) == [
        "your team has no Treatment Cards left: left position 1 empty",
        "R2 is not a card (R comes as R3, R4, R6, R7): left position 3 empty",
    ]
    state = ENGINE.apply(state, 0, {"type": "set_variant", "text": "5 8 6"})
    assert left_empty(state) == [], "what the next answer leaves empty is its own"


def test_a_typed_variant_left_partly_empty_replays_the_same():
    state = with_words(new(2, treatment=0), STRANGER)
    after = ENGINE.apply(state, 0, {"type": "set_variant", "text": "S5 X? R2 A1"})
    again = ENGINE.apply(ENGINE.load(ENGINE.dump(state)), 0, {"type": "set_variant", "text": "S5 X? R2 A1"})
    assert after.variants[0] == again.variants[0] == ["S5", None, None, "A1", None, None, None, None]


def test_cards_given_as_a_list_stay_strict():
    state = with_words(new(2, treatment=0), STRANGER)
    assert unchanged_after(state, 0, {"type": "set_variant", "cards": ["S5", "R2"]}).startswith("there is no R2")


def test_a_party_members_card_that_does_not_exist_is_left_empty_and_their_others_kept():
    state = answer(party_of_three(), 1, "S5")  # Bo's card stays whatever Ada types
    state = answer(state, 0, "R2 A1 2:T1")
    assert state.variants[0] == ["S5", None, None, "A1", None, None, None, None]
    assert left_empty(state) == [
        "T1 is not a card (T comes as T5, T7, T8): left position 2 empty",
        "R2 is not a card (R comes as R3, R4, R6, R7): left position 3 empty",
    ]


def test_a_party_answer_with_none_of_the_members_cards_to_keep_is_refused():
    state = answer(party_of_three(), 0, "R3")
    assert refused(state, 0, "R2").startswith("there is no R2 in the deck")
    assert refused(state, 0, "3:*") == "your team has no Treatment Cards left; this variant uses 1"
