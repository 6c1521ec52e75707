"""Octa rules, one test per rule sentence of the seed and the decisions file."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from engines.base import IllegalAction
from engines.octa import ENGINE
from engines.octa.cards import FULL_DECK, extension_side, hand_runs, line_is_run, run_start_for
from engines.octa.rules import (
    CENTRE,
    OCTA_REASON,
    STOCK_REASON,
    all_cards,
    has_won,
    protected_positions,
    run_length,
    table_count,
)
from engines.octa.testing import near_win_options


def game(step: str | None = None, **deal):
    """A new game with seat 0 on turn; ``step`` jumps to a step (for focused rule tests)."""
    deal.setdefault("first", 0)
    state = ENGINE.new_game(2, {"deal": deal}, seed=11)
    if step:
        # Skip the steps before ``step``: place the revealed action card, undo the turn's draw.
        state.action_piles[0].append(state.revealed)
        state.revealed = None
        if "hands" in deal:
            state.stock.append(state.hands[0].pop())
        state.step = step
    return state


def run(cards):
    return {"suit": cards[0][-1], "start": run_start_for(cards), "slots": list(cards)}


def types(actions):
    return {a["type"] for a in actions}


# ---------------------------------------------------------------- set-up


def test_setup_deals_pool_hands_stock_and_action_cards():
    state = ENGINE.new_game(2, {}, seed=3)
    assert all_cards(state) == FULL_DECK
    assert len(state.pool) == 8
    assert all(state.pool)
    starter = state.current
    assert len(state.hands[starter]) == 9  # 8 dealt + the automatic draw of step 1
    assert len(state.hands[1 - starter]) == 8
    assert len(state.set_aside) == 8
    assert [len(p) for p in state.action_piles] == [1, 1]
    assert len(state.action_stack) == 13  # 16 - 2 face up - 1 revealed
    assert state.revealed
    assert len(state.stock) == 80 - 8 - 16 - 1
    assert state.tokens == [CENTRE, CENTRE]
    assert state.step == "place_action"
    assert all(card[:-1] in ("J", "Q", "K") for card in state.action_stack + state.set_aside)


def test_first_player_is_random_but_reproducible():
    starters = {ENGINE.new_game(2, {}, seed=s).current for s in range(20)}
    assert starters == {0, 1}
    assert ENGINE.new_game(2, {}, seed=5) == ENGINE.new_game(2, {}, seed=5)


def test_only_two_players():
    with pytest.raises(ValueError, match="Octa takes at most 2 players, not 3"):
        ENGINE.new_game(3, {}, seed=1)


# ---------------------------------------------------------------- runs


def test_runs_with_ace_low_and_high_but_no_wrap():
    assert run_start_for(["AD", "2D", "3D"]) == 1
    assert run_start_for(["9D", "10D", "AD"]) == 9
    assert run_start_for(["10D", "AD", "2D"]) is None
    assert run_start_for(["2D", "3D"]) is None
    assert run_start_for(["2D", "3D", "4H"]) is None
    assert run_start_for(["2D", "3D", "5D"]) is None
    assert run_start_for(["JD", "QD", "KD"]) is None
    assert run_start_for([f"{v}S" for v in ["A", 2, 3, 4, 5, 6, 7, 8, 9, 10]]) == 1


def test_extension_never_uses_both_aces_nor_wraps():
    assert extension_side(8, 10, "H", ["AH"]) == "high"
    assert extension_side(2, 4, "H", ["AH"]) == "low"
    assert extension_side(1, 10, "H", ["AH"]) is None
    assert extension_side(2, 4, "H", ["6H"]) is None
    assert extension_side(2, 4, "H", ["5H", "6H"]) == "high"


def test_hand_runs_lists_every_layable_run():
    found = hand_runs(["9C", "10C", "AC", "2C", "5H"])
    assert ["9C", "10C", "AC"] in found
    assert all(len(r) >= 3 for r in found)
    assert not any("2C" in r for r in found)  # 10-A-2 would wrap


# ---------------------------------------------------------------- step 2: action cards


def test_flip_to_matching_suit_offers_the_action():
    state = game(action_piles=[["KS"], ["QD"]], action_stack_top=["JS"])
    assert state.revealed == "JS"
    # Covering the Q♦ leaves K♠ and J♠ face up: same suit, so the Jack may be used.
    after = ENGINE.apply(state, 0, {"type": "flip", "pile": 1})
    assert after.step == "action"
    assert after.action_piles[1] == ["QD", "JS"]
    assert {"type": "skip_action"} in ENGINE.legal_actions(after, 0)
    other = ENGINE.apply(state, 0, {"type": "flip", "pile": 0})
    assert other.step == "option"


def test_flip_onto_different_suit_goes_straight_to_options():
    state = game(action_piles=[["KH"], ["QD"]], action_stack_top=["JS"])
    for pile in (0, 1):
        assert ENGINE.apply(state, 0, {"type": "flip", "pile": pile}).step == "option"


def _action_state(card: str, **deal):
    state = game(
        action_piles=[[card[0] + "S"], ["KD" if card[0] != "K" else "QD"]],
        action_stack_top=[card[0] + "S" if card[0] != "K" else "KS"],
        **deal,
    )
    state = ENGINE.apply(state, 0, {"type": "flip", "pile": 1})
    assert state.step == "action"
    return state


def test_jack_covers_a_card_with_a_face_down_stock_card():
    state = _action_state("J", runs=[[], [["4H", "5H", "6H", "7H"]]])
    stock_top = state.stock[-1]
    action = {"type": "use_action", "action": "jack", "owner": 1, "run": 0, "slot": 2}
    assert action in ENGINE.legal_actions(state, 0)
    after = ENGINE.apply(state, 0, action)
    assert after.runs[1][0]["slots"] == ["4H", "5H", "#" + stock_top, "7H"]
    assert run_length(after.runs[1][0]) == 3
    assert table_count(after, 1) == 3
    assert "6H" in after.hands[0]
    assert after.step == "option"
    assert all_cards(after) == FULL_DECK


def test_jack_leaves_at_least_one_face_up_card():
    state = _action_state("J", runs=[[], [["4H", "5H", "6H"]]])
    state.runs[1][0]["slots"] = ["#2C", "5H", "#3C"]
    jacks = [a for a in ENGINE.legal_actions(state, 0) if a["type"] == "use_action"]
    assert jacks == []
    with pytest.raises(IllegalAction, match="at least one face-up"):
        ENGINE.apply(state, 0, {"type": "use_action", "action": "jack", "owner": 1, "run": 0, "slot": 1})


def test_jack_may_target_own_run_and_needs_the_stock():
    state = _action_state("J", runs=[[["4H", "5H", "6H"]], []])
    assert {"type": "use_action", "action": "jack", "owner": 0, "run": 0, "slot": 0} in ENGINE.legal_actions(state, 0)
    state.stock = []
    assert not [a for a in ENGINE.legal_actions(state, 0) if a["type"] == "use_action"]


def test_a_card_the_jack_turned_face_down_cannot_be_replaced_in_the_same_turn():
    state = _action_state("J", runs=[[], [["4H", "5H", "6H"]]])
    state.hands[0].append("9S")
    state = ENGINE.apply(state, 0, {"type": "use_action", "action": "jack", "owner": 1, "run": 0, "slot": 1})
    assert "5H" in state.hands[0], "the uncovered card went to the Jack player's hand"
    refill = {"type": "fill_hidden", "owner": 1, "run": 0, "card": "5H"}
    assert refill not in ENGINE.legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="from the next turn on"):
        ENGINE.apply(state, 0, refill)
    state.fresh_face_down = []  # as at the start of any later turn
    assert refill in ENGINE.legal_actions(state, 0)


def test_at_the_first_stock_run_out_a_run_of_three_counts_its_face_down_card():
    state = game(step="option", runs=[[["4H", "5H", "6H"], ["2S", "3S", "4S", "5S"]], []], hands=[["9C"], []])
    state.runs[0][0]["slots"][1] = "#KD"  # three cards, one of them face down
    state.stock = []
    state = ENGINE.apply(state, 0, {"type": "pass_step"})
    assert [r["slots"] for r in state.runs[0]] == [["2S", "3S", "4S", "5S"]]
    assert {"4H", "KD", "6H"} <= set(state.stock)


def test_either_player_may_replace_the_face_down_card_and_take_it():
    state = game(step="option", runs=[[], [["4H", "5H", "6H", "7H"]]], hands=[["6H", "2C"], ["9S"]])
    state.runs[1][0]["slots"][2] = "#9D"
    action = {"type": "fill_hidden", "owner": 1, "run": 0, "card": "6H"}
    assert action in ENGINE.legal_actions(state, 0)
    after = ENGINE.apply(state, 0, action)
    assert after.runs[1][0]["slots"] == ["4H", "5H", "6H", "7H"]
    assert "9D" in after.hands[0]
    assert "6H" not in after.hands[0]
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, {"type": "fill_hidden", "owner": 1, "run": 0, "card": "2C"})


def test_queen_takes_two_same_suit_pool_cards_refilled_from_stock():
    pool = ["2D", "9S", "8D", "4C", "5H", "7S", "10H", "3C"]
    state = _action_state("Q", pool=pool, discard=["AH"], stock_top=["6C", "2S", "3S"])
    queens = [a["positions"] for a in ENGINE.legal_actions(state, 0) if a["type"] == "use_action"]
    assert sorted(queens) == sorted([[1, 3], [2, 6], [4, 8], [5, 7]])
    stock_before = list(state.stock)
    after = ENGINE.apply(state, 0, {"type": "use_action", "action": "queen", "positions": [3, 1]})
    assert {"2D", "8D"} <= set(after.hands[0])
    # refilled in reading order
    assert after.pool[0] == stock_before[-1]
    assert after.pool[2] == stock_before[-2]
    assert after.discard == ["AH"]  # the Queen refills from the stock only


def test_queen_cannot_take_from_a_token_protected_pool_run():
    pool = ["2D", "3D", "4D", "8D", "5H", "7S", "10H", "3C"]
    state = _action_state("Q", pool=pool)
    state.tokens[1] = "pool:top"
    assert protected_positions(state) == {1, 2, 3}
    queens = [a["positions"] for a in ENGINE.legal_actions(state, 0) if a["type"] == "use_action"]
    assert all(not set(p) & {1, 2, 3} for p in queens)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, {"type": "use_action", "action": "queen", "positions": [1, 4]})


def test_king_draws_two_from_stock_or_discard_in_order():
    state = _action_state("K", discard=["5C", "6C", "7C"])
    top_two = state.stock[-2:]
    after = ENGINE.apply(state, 0, {"type": "use_action", "action": "king", "source": "stock"})
    assert after.hands[0][-2:] == [top_two[1], top_two[0]]
    after = ENGINE.apply(state, 0, {"type": "use_action", "action": "king", "source": "discard"})
    assert after.hands[0][-2:] == ["7C", "6C"]
    assert after.discard == ["5C"]


def test_king_from_discard_needs_two_cards():
    state = _action_state("K", discard=["5C"])
    sources = {a.get("source") for a in ENGINE.legal_actions(state, 0) if a["type"] == "use_action"}
    assert sources == {"stock"}


def test_actions_are_optional():
    state = _action_state("K")
    assert ENGINE.apply(state, 0, {"type": "skip_action"}).step == "option"


def test_action_stack_reshuffles_with_the_set_aside_cards():
    state = game()
    state.action_stack = []
    state.action_piles = [["JS", "QS", "KS"], ["JD", "QD"]]
    state.revealed = None
    state.step = "discard"
    state.hands[0] = ["2C"]
    after = ENGINE.apply(state, 0, {"type": "end_turn"})
    assert [len(p) for p in after.action_piles] == [1, 1]
    assert after.action_piles == [["KS"], ["QD"]]
    assert after.set_aside == []
    assert len(after.action_stack) + 1 == 3 + 8  # 2 + 1 under the faces, 8 set aside, 1 revealed


# ---------------------------------------------------------------- step 3: options


def test_option_a_lays_a_run_with_the_token():
    state = game(step="option", hands=[["7H", "8H", "9H", "2C"], ["3S"]])
    action = {"type": "lay_run", "cards": ["7H", "8H", "9H"], "token": True}
    assert action in ENGINE.legal_actions(state, 0)
    after = ENGINE.apply(state, 0, action)
    assert after.runs[0][-1]["slots"] == ["7H", "8H", "9H"]
    assert after.tokens[0] == "run:0"
    assert after.step == "exchange"
    with pytest.raises(IllegalAction):  # only one option per turn
        ENGINE.apply(after, 0, {"type": "lay_run", "cards": ["2C", "3C", "4C"], "token": False})


def test_option_a_token_only_from_the_centre_and_runs_never_merge():
    state = game(step="option", hands=[["7H", "8H", "9H"], []], runs=[[["4H", "5H", "6H"]], []])
    state.tokens[0] = "pool:top"
    assert {"type": "lay_run", "cards": ["7H", "8H", "9H"], "token": True} not in ENGINE.legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="token"):
        ENGINE.apply(state, 0, {"type": "lay_run", "cards": ["7H", "8H", "9H"], "token": True})
    after = ENGINE.apply(state, 0, {"type": "lay_run", "cards": ["7H", "8H", "9H"], "token": False})
    assert len(after.runs[0]) == 2


def test_option_a_rejects_non_runs():
    state = game(step="option", hands=[["7H", "8H", "10H"], []])
    with pytest.raises(IllegalAction, match="not a run"):
        ENGINE.apply(state, 0, {"type": "lay_run", "cards": ["7H", "8H", "10H"], "token": False})


B_POOL = ["4H", "9S", "2C", "5D", "6C", "7S", "8S", "10D"]


def _b_ready(turn_gap: int = 1):
    state = game(
        step="option",
        pool=B_POOL,
        hands=[["5S", "6S", "3C"], ["AC"]],
        runs=[[["AD", "2D", "3D"]], []],
        discard=["AH", "2H"],
    )
    state.tokens[0], state.token_turn[0] = "run:0", state.turn - turn_gap
    return state


def test_option_b_needs_a_token_placed_on_a_run_in_an_earlier_turn():
    assert {"type": "take_line", "line": "bottom"} in ENGINE.legal_actions(_b_ready(), 0)
    same_turn = _b_ready(turn_gap=0)
    assert not [a for a in ENGINE.legal_actions(same_turn, 0) if a["type"] == "take_line"]
    with pytest.raises(IllegalAction, match="earlier turn"):
        ENGINE.apply(same_turn, 0, {"type": "take_line", "line": "bottom"})
    centre = _b_ready()
    centre.tokens[0] = CENTRE
    assert not [a for a in ENGINE.legal_actions(centre, 0) if a["type"] == "take_line"]


def test_option_b_takes_a_line_and_must_play_a_taken_card():
    state = ENGINE.apply(_b_ready(), 0, {"type": "take_line", "line": "bottom"})
    assert state.step == "b_play"
    assert {"7S", "8S", "10D"} <= set(state.hands[0])
    assert state.pool[5:] == [None, None, None]
    assert {"type": "pass_step"} not in ENGINE.legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="at least one"):
        ENGINE.apply(state, 0, {"type": "pass_step"})
    state = ENGINE.apply(state, 0, {"type": "lay_run", "cards": ["5S", "6S", "7S", "8S"], "token": False})
    state = ENGINE.apply(state, 0, {"type": "pass_step"})
    assert state.tokens[0] == CENTRE
    assert state.step == "exchange"
    # Refill: discard first (top card first), then stock, left to right, top to bottom.
    assert state.pool[5:7] == ["2H", "AH"]
    assert state.pool[7] is not None
    assert state.discard == []


def test_option_b_extension_of_own_run_counts_as_playing():
    state = _b_ready()
    state.pool[0] = "4D"  # top line: 4D 9S 2C, and 4D continues the run AD 2D 3D
    state = ENGINE.apply(state, 0, {"type": "take_line", "line": "top"})
    assert {"type": "pass_step"} not in ENGINE.legal_actions(state, 0)
    state = ENGINE.apply(state, 0, {"type": "add_to_run", "run": 0, "cards": ["4D"]})
    assert state.b_played
    assert {"type": "pass_step"} in ENGINE.legal_actions(state, 0)
    assert {"9S", "2C"} <= set(state.hands[0])  # the rest stays in hand


def test_option_b_cannot_spend_the_card_that_made_a_taken_card_playable():
    """6S makes the taken 7S 8S a run; filling a face-down 6S elsewhere first would leave no
    taken card playable, and option B would end with all three still in hand."""
    state = _b_ready()
    state.hands[0] = ["6S", "3C", "9H"]
    state.runs[1] = [run(["4S", "5S", "6S"])]
    state.runs[1][0]["slots"][2] = "#9D"  # face down; the card that belongs there is 6S
    state = ENGINE.apply(state, 0, {"type": "take_line", "line": "bottom"})
    spend = {"type": "fill_hidden", "owner": 1, "run": 0, "card": "6S"}
    assert spend not in ENGINE.legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="first play one of the cards you took"):
        ENGINE.apply(state, 0, spend)

    state = ENGINE.apply(state, 0, {"type": "lay_run", "cards": ["6S", "7S", "8S"], "token": False})
    assert state.b_played
    assert {"type": "pass_step"} in ENGINE.legal_actions(state, 0)


def test_option_b_filling_a_face_down_card_with_a_taken_card_counts_as_playing():
    state = _b_ready()
    state.hands[0] = ["6S", "3C", "KH"]  # 6S 7S 8S would be a run too: the line may be taken
    state.runs[1] = [run(["7D", "8D", "9D", "10D"])]
    state.runs[1][0]["slots"][3] = "#QC"  # face down; the card that belongs there is 10D, which option B takes
    state = ENGINE.apply(state, 0, {"type": "take_line", "line": "bottom"})
    assert not state.b_played
    state = ENGINE.apply(state, 0, {"type": "fill_hidden", "owner": 1, "run": 0, "card": "10D"})
    assert state.b_played
    assert {"type": "pass_step"} in ENGINE.legal_actions(state, 0)


def test_option_b_line_must_allow_a_play_and_not_be_protected():
    state = _b_ready()
    lines = {a["line"] for a in ENGINE.legal_actions(state, 0) if a["type"] == "take_line"}
    assert "top" not in lines  # 4H 9S 2C: none of them can be played
    state.tokens[1] = "pool:bottom"
    lines = {a["line"] for a in ENGINE.legal_actions(state, 0) if a["type"] == "take_line"}
    assert "bottom" not in lines


def test_option_c_claims_own_pool_run_and_refills():
    pool = ["2D", "3D", "4D", "8D", "5H", "7S", "10H", "3C"]
    state = game(step="option", pool=pool, discard=["9C"])
    state.tokens[0] = "pool:top"
    assert {"type": "claim_pool_run"} in ENGINE.legal_actions(state, 0)
    after = ENGINE.apply(state, 0, {"type": "claim_pool_run"})
    assert after.runs[0][-1]["slots"] == ["2D", "3D", "4D"]
    assert after.tokens[0] == CENTRE
    assert after.pool[0] == "9C"
    assert all(after.pool)
    state.tokens = ["centre", "pool:top"]
    assert {"type": "claim_pool_run"} not in ENGINE.legal_actions(state, 0)


def test_option_step_can_be_passed():
    state = game(step="option")
    assert ENGINE.apply(state, 0, {"type": "pass_step"}).step == "exchange"


# ---------------------------------------------------------------- step 4: exchange


EX_POOL = ["AC", "3H", "4H", "9S", "6S", "KH", "7D", "8D"]  # position 6 is filled below


def _exchange_state(hand):
    pool = list(EX_POOL)
    pool[5] = "2S"
    return game(step="exchange", pool=pool, hands=[hand, []])


def test_exchange_needs_a_same_suit_neighbour_one_rank_away():
    state = _exchange_state(["2H", "5C"])
    action = {"type": "exchange", "hand_card": "2H", "pool_position": 1, "token": False}
    assert action in ENGINE.legal_actions(state, 0)
    after = ENGINE.apply(state, 0, action)
    assert after.pool[0] == "2H"
    assert "AC" in after.hands[0]
    assert after.step == "discard"
    with pytest.raises(IllegalAction, match="next to"):
        ENGINE.apply(state, 0, {"type": "exchange", "hand_card": "5C", "pool_position": 1, "token": False})


def test_exchange_diagonal_is_not_next_to():
    state = _exchange_state(["5S"])
    # 5S at position 4 touches 6S? position 5 is across the centre, not adjacent.
    assert not any(a.get("pool_position") == 4 and a.get("hand_card") == "5S" for a in ENGINE.legal_actions(state, 0))


def test_exchange_forming_a_pool_run_may_take_the_token():
    state = _exchange_state(["2H"])
    action = {"type": "exchange", "hand_card": "2H", "pool_position": 1, "token": True, "line": "top"}
    assert action in ENGINE.legal_actions(state, 0)
    after = ENGINE.apply(state, 0, action)
    assert after.tokens[0] == "pool:top"
    assert protected_positions(after) == {1, 2, 3}
    assert line_is_run(after.pool[0:3])


def test_exchange_once_per_turn_and_protected_cards_stay():
    state = _exchange_state(["2H", "3C"])
    state.tokens[1] = "pool:top"
    assert not any(
        a.get("pool_position") in (1, 2, 3) for a in ENGINE.legal_actions(state, 0) if a["type"] == "exchange"
    )
    with pytest.raises(IllegalAction, match="protected"):
        ENGINE.apply(state, 0, {"type": "exchange", "hand_card": "2H", "pool_position": 1, "token": False})
    state.step = "exchange"
    state.exchanged = True
    assert not [a for a in ENGINE.legal_actions(state, 0) if a["type"] == "exchange"]


def test_exchange_token_needs_token_in_centre():
    state = _exchange_state(["2H"])
    state.tokens[0] = "run:0"
    state.runs[0] = [run(["5C", "6C", "7C"])]
    with pytest.raises(IllegalAction, match="token"):
        ENGINE.apply(state, 0, {"type": "exchange", "hand_card": "2H", "pool_position": 1, "token": True})


# ---------------------------------------------------------------- step 5 and adding


def test_discard_required_with_eight_or_more_and_ends_the_turn():
    state = game(step="discard", hands=[["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C"], []])
    assert {"type": "end_turn"} not in ENGINE.legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="discard"):
        ENGINE.apply(state, 0, {"type": "end_turn"})
    after = ENGINE.apply(state, 0, {"type": "discard", "card": "2C"})
    assert after.discard[-1] == "2C"
    assert after.current == 1
    assert after.step == "place_action"


def test_hand_limit_discards_one_by_one_down_to_eight():
    hand = ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "AS", "2S"]
    state = game(step="discard", hands=[hand, []])
    state = ENGINE.apply(state, 0, {"type": "discard", "card": "2C"})
    assert state.current == 0
    assert {"type": "end_turn"} not in ENGINE.legal_actions(state, 0)
    state = ENGINE.apply(state, 0, {"type": "discard", "card": "3C"})
    assert state.current == 0
    state = ENGINE.apply(state, 0, {"type": "discard", "card": "4C"})
    assert state.current == 1
    assert len(state.hands[0]) == 8


def test_fewer_than_eight_cards_may_end_without_discarding():
    state = game(step="discard", hands=[["2C", "3C"], []])
    assert ENGINE.apply(state, 0, {"type": "end_turn"}).current == 1
    assert ENGINE.apply(state, 0, {"type": "discard", "card": "2C"}).current == 1


def test_add_to_own_runs_at_any_step_of_own_turn_at_either_end():
    state = game(hands=[["3H", "9H", "10H"], []], runs=[[["4H", "5H", "6H", "7H", "8H"]], []])
    assert state.step == "place_action"
    actions = ENGINE.legal_actions(state, 0)
    assert {"type": "add_to_run", "run": 0, "cards": ["9H", "10H"]} in actions
    assert {"type": "add_to_run", "run": 0, "cards": ["3H"]} in actions
    after = ENGINE.apply(state, 0, {"type": "add_to_run", "run": 0, "cards": ["3H"]})
    assert after.runs[0][0]["slots"][0] == "3H"
    assert after.runs[0][0]["start"] == 3
    assert not [a for a in ENGINE.legal_actions(state, 1) if a["type"] == "add_to_run"]


def test_not_your_turn_and_resign():
    state = game()
    with pytest.raises(IllegalAction, match="not your turn"):
        ENGINE.apply(state, 1, {"type": "flip", "pile": 0})
    over = ENGINE.apply(state, 1, {"type": "resign"})
    assert ENGINE.outcome(over).winners == (0,)
    with pytest.raises(IllegalAction, match="over"):
        ENGINE.apply(over, 0, {"type": "flip", "pile": 0})


def test_illegal_action_leaves_state_unchanged():
    state = game(step="option", hands=[["7H", "8H", "10H"], []])
    before = ENGINE.dump(state)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, {"type": "lay_run", "cards": ["7H", "8H", "10H"], "token": False})
    assert ENGINE.dump(state) == before


# ---------------------------------------------------------------- stock and endings


def test_first_stock_runout_reshuffles_discard_and_runs_of_three():
    state = game(
        step="discard",
        hands=[["2C", "3C"], []],
        runs=[[["4H", "5H", "6H"], ["AS", "2S", "3S", "4S"]], [["7D", "8D", "9D"]]],
    )
    state.discard = state.stock[:-1]
    state.stock = state.stock[-1:]  # the next turn's draw empties it
    state.tokens = ["run:1", "run:0"]
    after = ENGINE.apply(state, 0, {"type": "end_turn"})
    assert after.stock_runouts == 1
    assert not after.final_turn
    assert [r["slots"] for r in after.runs[0]] == [["AS", "2S", "3S", "4S"]]
    assert after.runs[1] == []
    assert after.tokens == ["run:0", CENTRE]
    assert after.discard == []
    assert len(after.stock) > 0
    assert {"4H", "7D"} <= set(after.stock)
    assert all_cards(after) == all_cards(state)


def test_second_runout_plays_out_the_turn_then_most_cards_wins():
    state = game(
        step="discard",
        hands=[["2C", "3C"], ["2D"]],
        runs=[[["4H", "5H", "6H", "7H"]], [["AS", "2S", "3S", "4S", "5S"]]],
    )
    state.stock_runouts = 1
    state.discard = state.discard + state.stock[:-1]
    state.stock = state.stock[-1:]
    after = ENGINE.apply(state, 0, {"type": "end_turn"})
    assert after.current == 1
    assert after.final_turn
    assert ENGINE.outcome(after) is None
    after.step = "discard"
    done = ENGINE.apply(after, 1, {"type": "end_turn"})
    result = ENGINE.outcome(done)
    assert result.winners == (1,)
    assert result.scores == (4.0, 5.0)
    assert done.over
    assert result.reason == STOCK_REASON
    assert ENGINE.to_act(done) == []
    assert ENGINE.legal_actions(done, 0) == []


def test_equal_table_after_second_runout_is_a_draw():
    state = game(step="discard", hands=[["2C"], []], runs=[[["4H", "5H", "6H"]], [["4S", "5S", "6S"]]])
    state.stock_runouts, state.final_turn = 2, True
    done = ENGINE.apply(state, 0, {"type": "end_turn"})
    assert ENGINE.outcome(done).is_draw


def test_win_needs_an_octa_and_28_table_cards():
    state = ENGINE.new_game(2, near_win_options(), seed=2)
    assert table_count(state, 0) == 27
    assert not has_won(state, 0)
    state = ENGINE.apply(state, 0, {"type": "flip", "pile": 0})
    done = ENGINE.apply(state, 0, {"type": "add_to_run", "run": 3, "cards": ["5C"]})
    result = ENGINE.outcome(done)
    assert result.winners == (0,)
    assert result.scores[0] == 28
    assert result.reason == OCTA_REASON
    assert [event.kind for event in done.events] == ["add_to_run", "octa", "end"]
    assert done.events[1].seat == 0
    assert done.events[1].data == {"table": 28}


def test_28_cards_without_an_octa_do_not_win_and_face_down_cards_do_not_count():
    state = game(
        runs=[
            [
                ["AH", "2H", "3H", "4H", "5H", "6H", "7H"],
                ["AS", "2S", "3S", "4S", "5S", "6S", "7S"],
                ["AD", "2D", "3D", "4D", "5D", "6D", "7D"],
                ["AC", "2C", "3C", "4C", "5C", "6C", "7C"],
            ],
            [],
        ]
    )
    assert table_count(state, 0) == 28
    assert not has_won(state, 0)
    state.runs[0][0]["slots"] += ["8H"]
    assert has_won(state, 0)
    state.runs[0][0]["slots"][3] = "#9C"
    assert not has_won(state, 0)


# ---------------------------------------------------------------- description and serialisation


def test_dump_load_round_trip_through_json():
    state = ENGINE.new_game(2, {}, seed=9)
    data = json.loads(json.dumps(ENGINE.dump(state)))
    assert ENGINE.load(data) == state
    assert ENGINE.dump(ENGINE.load(data)) == ENGINE.dump(state)


def test_apply_never_mutates_its_input():
    state = game(step="option", hands=[["7H", "8H", "9H"], []])
    snapshot = state.copy()
    ENGINE.apply(state, 0, {"type": "lay_run", "cards": ["7H", "8H", "9H"], "token": True})
    assert state == snapshot


def test_accounting_counts_each_code_twice():
    assert set(Counter(FULL_DECK).values()) == {2}
    assert sum(FULL_DECK.values()) == 104


# ---------------------------------------------------------------- malformed actions


@pytest.mark.parametrize(
    "action",
    [
        {"type": ["flip"], "pile": 0},  # an unhashable type crashed the old dispatch
        {"type": "flip", "pile": True},  # True was taken for pile 1
        {"type": "flip", "pile": "0"},
        {"type": "flip"},
        {"type": "flip", "pile": 0, "token": True},
        {"type": "lay_run", "cards": "7H 8H 9H", "token": False},
        {"type": "lay_run", "cards": [7, 8, 9], "token": False},
        {"type": "add_to_run", "run": True, "cards": ["3H"]},
        {"type": "discard", "card": None},
    ],
)
def test_malformed_actions_are_refused_at_the_first_step(action):
    state = game()
    before = ENGINE.dump(state)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, action)
    assert ENGINE.dump(state) == before


def test_malformed_exchange_and_queen_fields_are_refused_instead_of_crashing():
    state = _exchange_state(["2H"])
    for bad in (
        {"type": "exchange", "hand_card": "2H", "pool_position": 1.0, "token": False},  # was a TypeError
        {"type": "exchange", "hand_card": ["2H"], "pool_position": 1, "token": False},
        {"type": "exchange", "hand_card": "2H", "pool_position": 1, "token": "yes"},
        {"type": "exchange", "hand_card": "2H", "pool_position": 1, "token": False, "line": "top"},
    ):
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, 0, bad)
    queen = _action_state("Q", pool=["2D", "9S", "8D", "4C", "5H", "7S", "10H", "3C"])
    for bad in (
        {"type": "use_action", "action": "queen", "positions": [1, "a"]},  # sorting crashed
        {"type": "use_action", "action": "queen", "positions": 13},
        {"type": "use_action", "action": "queen", "positions": [1, 3], "colour": "red"},
    ):
        with pytest.raises(IllegalAction):
            ENGINE.apply(queen, 0, bad)
    jack = _action_state("J", runs=[[], [["4H", "5H", "6H", "7H"]]])
    with pytest.raises(IllegalAction):  # a float index reached a list lookup
        ENGINE.apply(jack, 0, {"type": "use_action", "action": "jack", "owner": 1, "run": 0, "slot": 2.0})


# ---------------------------------------------------------------- events


def kinds(state):
    return [event.kind for event in state.events]


def test_a_new_game_records_the_deal_and_the_first_turn():
    state = game()
    assert state.ply == 0
    assert kinds(state) == ["deal", "turn"]
    assert state.events[0].data == {"first": 0}
    assert state.events[1].seat == 0
    assert state.events[1].data == {"turn": 0, "drew": True, "revealed": state.revealed, "reshuffled": False}


def test_each_step_records_what_it_did_with_public_cards_only():
    state = game(
        action_piles=[["KS"], ["QD"]],
        action_stack_top=["JS"],
        runs=[[], [["4H", "5H", "6H", "7H"]]],
        hands=[["2C", "5S"], ["9S"]],
        stock_top=["10C", "9D"],  # the turn's draw, then the Jack's face-down card
    )
    assert state.events[1].data["drew"] is True
    assert "10C" not in repr(state.events)  # the drawn card stays private
    state = ENGINE.apply(state, 0, {"type": "flip", "pile": 1})
    assert state.events[0].data == {"card": "JS", "pile": 1, "match": True, "action": "jack"}
    state = ENGINE.apply(state, 0, {"type": "use_action", "action": "jack", "owner": 1, "run": 0, "slot": 2})
    assert [(e.kind, e.seat, e.data) for e in state.events] == [
        ("use_action", 0, {"action": "jack", "owner": 1, "run": 0, "card": "6H"})
    ]
    assert state.runs[1][0]["slots"][2] == "#9D"
    state = ENGINE.apply(state, 0, {"type": "pass_step"})
    assert state.events[0].data == {"step": "option"}
    state = ENGINE.apply(state, 0, {"type": "pass_step"})
    assert state.events[0].data == {"step": "exchange"}
    state = ENGINE.apply(state, 0, {"type": "discard", "card": "5S"})
    assert kinds(state) == ["discard", "turn"]
    assert state.events[0].data == {"card": "5S"}
    assert state.events[1].seat == 1
    assert state.events[1].data["turn"] == 1
    assert all(event.ply == state.ply == 5 for event in state.events)


def test_king_and_fill_hidden_events_never_name_the_hidden_cards():
    state = _action_state("K", discard=["5C", "6C", "7C"])
    after = ENGINE.apply(state, 0, {"type": "use_action", "action": "king", "source": "stock"})
    assert after.events[0].data == {"action": "king", "source": "stock", "count": 2}
    state = game(step="option", runs=[[], [["4H", "5H", "6H", "7H"]]], hands=[["6H", "2C"], ["9S"]])
    state.runs[1][0]["slots"][2] = "#9D"
    after = ENGINE.apply(state, 0, {"type": "fill_hidden", "owner": 1, "run": 0, "card": "6H"})
    assert after.events[0].data == {"owner": 1, "run": 0, "card": "6H"}
    assert "9D" not in repr(after.events)


def test_runs_lines_and_exchanges_record_their_cards():
    state = game(step="option", hands=[["9H", "7H", "8H", "2C"], ["3S"]])
    after = ENGINE.apply(state, 0, {"type": "lay_run", "cards": ["9H", "7H", "8H"], "token": True})
    assert after.events[0].data == {"cards": ["7H", "8H", "9H"], "run": 0, "token": True}
    state = ENGINE.apply(_b_ready(), 0, {"type": "take_line", "line": "bottom"})
    assert state.events[0].data == {"line": "bottom", "cards": ["7S", "8S", "10D"]}
    exchanged = ENGINE.apply(
        _exchange_state(["2H"]), 0, {"type": "exchange", "hand_card": "2H", "pool_position": 1, "token": True}
    )
    assert exchanged.events[0].data == {"card": "2H", "taken": "AC", "position": 1, "line": "top"}
    added = ENGINE.apply(
        game(hands=[["3H"], []], runs=[[["4H", "5H", "6H"]], []]), 0, {"type": "add_to_run", "run": 0, "cards": ["3H"]}
    )
    assert added.events[0].data == {"run": 0, "cards": ["3H"], "side": "low"}


def test_the_stock_running_out_is_recorded():
    state = game(step="discard", hands=[["2C", "3C"], []], runs=[[["4H", "5H", "6H"]], []])
    state.discard = state.stock[:-1]
    state.stock = state.stock[-1:]
    after = ENGINE.apply(state, 0, {"type": "end_turn"})
    assert kinds(after) == ["end_turn", "stock_reshuffled", "turn"]
    assert after.events[1].seat is None
    assert after.events[1].data == {"cards": len(after.stock), "runs_returned": 1}
    state = game(step="discard", hands=[["2C", "3C"], []])
    state.stock_runouts = 1
    state.discard = []
    state.stock = state.stock[-1:]
    after = ENGINE.apply(state, 0, {"type": "end_turn"})
    assert kinds(after) == ["end_turn", "last_turn", "turn"]
    assert after.final_turn


def _public_cards(state) -> set[str]:
    """Cards both players can see (every discard was seen when it was made)."""
    seen = {c for c in state.pool if c} | set(state.discard) | {p[-1] for p in state.action_piles if p}
    seen |= {slot for runs in state.runs for run in runs for slot in run["slots"] if not slot.startswith("#")}
    return seen | ({state.revealed} if state.revealed else set())


def _codes_in(value) -> set[str]:
    if isinstance(value, str):
        return {value} if value in FULL_DECK else set()
    if isinstance(value, list | tuple):
        return set().union(*map(_codes_in, value)) if value else set()
    if isinstance(value, dict):
        return _codes_in(list(value.values()))
    return set()


@pytest.mark.parametrize("seed", range(4))
def test_events_only_name_cards_both_players_can_see(seed):
    from engines.octa import choose_action

    state = ENGINE.new_game(2, {}, seed)
    for _ in range(150):
        if state.over:
            break
        before = state
        state = ENGINE.apply(state, state.current, choose_action(state, state.current, "easy", seed))
        public = _public_cards(before) | _public_cards(state)
        for event in state.events:
            if event.kind == "discard" and "stock_reshuffled" in kinds(state):
                continue  # the card went into the new stock with the rest of the discard pile
            assert _codes_in(dict(event.data)) <= public, (event, before.step)


# ---------------------------------------------------------------- schema 1


def _as_schema_1(state) -> dict:
    """``state`` dumped as the engine of schema 1 stored it."""
    data = ENGINE.dump(state)
    outcome = data.pop("outcome")
    data.pop("events")
    data.pop("players")
    data["moves"] = data.pop("ply")
    data["schema"] = 1
    data["last_event"] = "Seat 1 did something."
    data["winner"], data["end_reason"] = None, ""
    if outcome is not None:
        reason = {OCTA_REASON: "octa", STOCK_REASON: "stock", "resignation": "resign"}[outcome["reason"]]
        data["winner"] = -1 if len(set(outcome["ranks"])) == 1 else outcome["ranks"].index(1)
        data["end_reason"], data["step"] = reason, "over"
    return data


def _same_but_events(a, b) -> None:
    left, right = ENGINE.dump(a), ENGINE.dump(b)
    left.pop("events")
    right.pop("events")
    assert left == right


def test_schema_1_games_won_by_an_octa_or_by_count_load_with_their_outcome():
    state = ENGINE.new_game(2, near_win_options(), seed=2)
    state = ENGINE.apply(state, 0, {"type": "flip", "pile": 0})
    won = ENGINE.apply(state, 0, {"type": "add_to_run", "run": 3, "cards": ["5C"]})
    _same_but_events(ENGINE.load(_as_schema_1(won)), won)
    assert ENGINE.load(_as_schema_1(won)).outcome.winners == (0,)

    state = game(step="discard", hands=[["2C"], []], runs=[[["4H", "5H", "6H"]], [["4S", "5S", "6S"]]])
    state.stock_runouts, state.final_turn = 2, True
    drawn = ENGINE.apply(state, 0, {"type": "end_turn"})
    assert drawn.outcome.is_draw
    _same_but_events(ENGINE.load(_as_schema_1(drawn)), drawn)
    running = ENGINE.apply(game(), 0, {"type": "flip", "pile": 0})
    loaded = ENGINE.load(_as_schema_1(running))
    _same_but_events(loaded, running)
    assert loaded.ply == 1
    assert loaded.events == []
