"""Party mode: each member answers with their own cards; the engine merges them into the team's
variant (decision of 2026-11-23), so teammates never retype or undo each other's cards."""

from __future__ import annotations

import json

import pytest

from engines.base import IllegalAction
from engines.octagion import ENGINE, TREATMENT, left_empty
from engines.octagion.rules import own_cells

STRANGER = "STRANGER"


def party_of_three(treatment=0):
    """Seats 0, 1, 2 in one team spelling STRANGER: numbers 1-3, 4-6 and 7-8."""
    state = ENGINE.new_game(3, {"teams": [0, 0, 0], "party": True, "treatment": treatment}, seed=5)
    state = ENGINE.load(ENGINE.dump(state))
    state.words = [STRANGER]
    return state


def answer(state, seat, text):
    return ENGINE.apply(state, seat, {"type": "set_variant", "text": text})


def refused(state, seat, text):
    before = json.dumps(ENGINE.dump(state), sort_keys=True)
    with pytest.raises(IllegalAction) as error:
        answer(state, seat, text)
    assert json.dumps(ENGINE.dump(state), sort_keys=True) == before
    return str(error.value)


def test_each_member_types_only_their_cards_and_they_land_where_their_letters_are():
    state = answer(party_of_three(), 0, "R3 A1 G2")
    state = answer(state, 1, "S5")
    state = answer(state, 2, "T8")
    assert state.variants[0] == ["S5", "T8", "R3", "A1", None, "G2", None, None]
    assert own_cells(state, 0) == {3: "R3", 4: "A1", 6: "G2"}
    assert own_cells(state, 1) == {1: "S5"}


def test_an_answer_replaces_only_the_members_own_cards():
    state = answer(answer(party_of_three(), 0, "R3 A1 G2"), 1, "S5 N6")
    state = answer(state, 0, "A1")  # R3 and G2 come off; Bo's S5 and N6 stay
    assert state.variants[0] == ["S5", None, None, "A1", "N6", None, None, None]
    state = answer(state, 1, "")  # an empty answer takes all of Bo's cards off
    assert state.variants[0] == [None, None, None, "A1", None, None, None, None]


def test_two_members_answering_from_the_same_position_do_not_undo_each_other():
    start = party_of_three()
    one_way = answer(answer(start, 0, "R3 A1"), 1, "S5 N6")
    other_way = answer(answer(start, 1, "S5 N6"), 0, "R3 A1")
    assert one_way.variants == other_way.variants
    assert one_way.variants[0] == ["S5", None, "R3", "A1", "N6", None, None, None]


def test_a_repeated_letter_takes_its_next_free_place_or_an_explicit_position():
    state = answer(party_of_three(), 0, "R3")  # STRANGER has R at 3 and 8
    state = answer(state, 1, "R4")
    assert state.variants[0][2] == "R3"
    assert state.variants[0][7] == "R4"
    state = answer(state, 2, "2:T7 7:8")  # "7:8": position 7's letter, E8
    assert state.variants[0] == [None, "T7", "R3", None, None, None, "E8", "R4"]


def test_a_whole_row_with_gaps_places_position_by_position():
    state = answer(party_of_three(), 0, "_ _ 3 1 _ 2")
    assert state.variants[0] == [None, None, "R3", "A1", None, "G2", None, None]


def test_refusals_teach_the_rule_and_change_nothing():
    state = answer(party_of_three(), 0, "R3")
    assert refused(state, 1, "3:R4") == "position 3 already holds R3, a teammate's card"
    assert refused(state, 0, "S5") == "in party mode you place only cards numbered 1, 2, 3; S5 is another team member's"
    assert refused(state, 0, "B3") == "STRANGER has no B: to place B3 anyway, give its position, like 3:B3"
    both_r = answer(state, 1, "R4")
    assert "every R of STRANGER (position 3, 8) is taken" in refused(both_r, 2, "R7")
    assert refused(state, 0, "3:R3 *") == "give '*' a position, like 3:*: only a card with its letter finds its place"
    assert refused(state, 0, "R3 ?").startswith("I can't read '?'")


def test_treatment_cards_belong_to_the_member_who_placed_them():
    state = answer(party_of_three(treatment=2), 0, "2:* R3")
    state = answer(state, 1, "5:*")
    assert state.variants[0] == [None, TREATMENT, "R3", None, TREATMENT, None, None, None]
    state = answer(state, 0, "R3")  # Ada's Treatment Card comes off, Bo's stays
    assert state.variants[0] == [None, None, "R3", None, TREATMENT, None, None, None]
    kept = answer(state, 0, "1:* 2:* R3")  # one Treatment Card more than the team has: that position stays empty
    assert kept.variants[0] == [TREATMENT, None, "R3", None, TREATMENT, None, None, None]
    assert left_empty(kept) == ["your team has only 2 Treatment Cards left: left position 2 empty"]
