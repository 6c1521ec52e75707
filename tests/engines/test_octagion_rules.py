"""Octagion rules, written from shared/seeds/octagion.txt and shared/rules/octagion.md."""

from __future__ import annotations

import itertools
import json
import random
import re

import pytest

from engines.base import Event, IllegalAction, Outcome
from engines.octagion import COUNTDOWN_CARDS, DECK_TABLE, ENGINE, TREATMENT, party_numbers, round_seconds, solution
from engines.octagion import rules as octagion_rules
from engines.octagion.cards import (
    DECK,
    FIRST_WORD_CARDS_EDITION,
    GAMMA_LEVELS,
    WORD_CARD_NAMES,
    word_at,
    word_cards,
    word_list,
)
from engines.octagion.rules import parse_variant, score_variant, variant_action
from engines.octagion.solver import best_variant, conforms, numbers_for, solution_count

STRANGER = "STRANGER"
STRANGER_SOLUTION = solution(STRANGER)


def new(players=1, **options):
    return ENGINE.new_game(players, options, seed=options.pop("seed", 11))


def with_words(state, word):
    """A copy of ``state`` whose teams all spell ``word`` (tests that need a known sequence)."""
    state = ENGINE.load(ENGINE.dump(state))
    state.words = [word] * state.team_count
    return state


def unchanged_after(state, seat, action):
    before = json.dumps(ENGINE.dump(state), sort_keys=True)
    with pytest.raises(IllegalAction) as error:
        ENGINE.apply(state, seat, action)
    assert json.dumps(ENGINE.dump(state), sort_keys=True) == before
    return str(error.value)


def brute_force_count(word):
    """Every assignment of the numbers 1..8 to the positions, kept if each card is in the deck."""
    deck = set(DECK)
    allowed = [{number for number in range(1, 9) if f"{letter}{number}" in deck} for letter in word.upper()]
    return sum(
        all(number in allowed[index] for index, number in enumerate(numbers))
        for numbers in itertools.permutations(range(1, 9))
    )


# ---------------------------------------------------------------- components


def test_deck_has_48_cards_six_per_number_and_no_repeated_pair():
    assert len(DECK) == 48 == len(set(DECK))
    for number in range(1, 9):
        assert sum(card.endswith(str(number)) for card in DECK) == 6
    assert DECK_TABLE[5] == "DEIMST"


def test_countdown_cards_times_levels_and_offsets():
    seconds = sorted(card.seconds for card in COUNTDOWN_CARDS)
    assert seconds == list(range(45, 116, 5))
    for level, times in ((1, range(95, 116, 5)), (2, range(70, 91, 5)), (3, range(45, 66, 5))):
        cards = [card for card in COUNTDOWN_CARDS if card.level == level]
        assert sorted(card.seconds for card in cards) == list(times)
        assert sorted(card.offset for card in cards) == [0, 8, 16, 24, 32]


def test_word_list_is_common_clean_eight_letter_words():
    words = word_list()
    assert 2000 <= len(words) <= 4000
    assert len(set(words)) == len(words)
    assert all(re.fullmatch(r"[a-z]{8}", word) for word in words)
    for blocked in ("criminal", "violence", "murderer", "cocaine", "bastards"):
        assert blocked not in words


def test_word_cards_are_13_cards_of_40_distinct_conforming_words():
    cards = word_cards()
    assert list(cards) == list(WORD_CARD_NAMES)
    everything = [word for words in cards.values() for word in words]
    assert all(len(words) == 40 for words in cards.values())
    assert len(set(everything)) == 520
    assert all(conforms(word) and word.lower() in word_list() for word in everything)
    assert word_at("B", 17) == cards["B"][16]


def test_zeta_word_cards_include_non_conforming_words():
    everything = [word for words in word_cards(zeta=True).values() for word in words]
    assert len(set(everything)) == 520
    assert any(not conforms(word) for word in everything)


# ---------------------------------------------------------------- solver


def test_solver_matches_brute_force_on_random_words():
    rng = random.Random(5)
    words = rng.sample(word_list(), 16) + ["".join(rng.choice("AEIORSTNLCD") for _ in range(8)) for _ in range(8)]
    for word in words:
        count = brute_force_count(word)
        assert solution_count(word) == count, word
        assert conforms(word) == (count > 0)
        found = solution(word)
        if count:
            assert len({card[1] for card in found}) == 8
            assert all(card in DECK and card[0] == letter for card, letter in zip(found, word.upper(), strict=True))
        else:
            assert found is None


def test_best_variant_uses_treatment_cards_only_where_numbers_run_out():
    assert TREATMENT not in best_variant(STRANGER)
    variant = best_variant("JAZZIEST")  # J and Z are on no card
    assert variant[0] == TREATMENT
    assert variant[2] == TREATMENT
    assert variant[3] == TREATMENT
    numbers = [cell[1] for cell in variant if cell != TREATMENT]
    assert len(numbers) == len(set(numbers))


def test_numbers_for_letter():
    assert numbers_for("S") == [2, 5, 6, 7]
    assert numbers_for("Z") == []


def test_most_of_the_word_list_conforms():
    share = sum(map(conforms, word_list())) / len(word_list())
    assert 0.5 < share < 0.9


# ---------------------------------------------------------------- scoring


def test_a_perfect_variant_scores_eight():
    result = score_variant(STRANGER_SOLUTION, STRANGER)
    assert result["score"] == 8
    assert result["penalties"] == 0
    assert [p["reason"] for p in result["positions"]] == ["ok"] * 8


def test_repeated_number_costs_one_and_the_first_card_is_not_penalised():
    variant = ["S5", "T5", "R3", "A1", "N7", "G2", "E4", "R6"]  # T5 repeats 5
    result = score_variant(variant, STRANGER)
    assert [p["reason"] for p in result["positions"]][:2] == ["ok", "repeated number"]
    assert result["score"] == 7


def test_wrong_letter_costs_one():
    variant = list(STRANGER_SOLUTION)
    variant[3] = "C1"  # keeps number 1, so only the letter is wrong
    result = score_variant(variant, STRANGER)
    assert result["positions"][3]["reason"] == "wrong letter"
    assert result["score"] == 7


def test_empty_position_costs_one():
    variant = list(STRANGER_SOLUTION)
    variant[7] = None
    assert score_variant(variant, STRANGER)["score"] == 7
    assert score_variant([None] * 8, STRANGER)["score"] == 0


def test_a_card_is_not_penalised_more_than_once():
    variant = list(STRANGER_SOLUTION)
    # Wrong letter and a repeated number at once: still one point.
    variant[1] = next(card for card in DECK if card[0] != "T" and card[1] == STRANGER_SOLUTION[0][1])
    result = score_variant(variant, STRANGER)
    assert result["positions"][1]["points"] == -1
    assert result["score"] == 7


def test_got_it_adds_two_when_perfect_and_takes_two_otherwise():
    assert score_variant(STRANGER_SOLUTION, STRANGER, got_it=True)["score"] == 10
    flawed = [*STRANGER_SOLUTION[:7], None]
    assert score_variant(flawed, STRANGER, got_it=True)["score"] == 5
    assert score_variant([None] * 8, STRANGER, got_it=True)["score"] == -2  # a score can be negative


def test_treatment_cards_are_never_penalised_and_carry_no_number():
    variant = [TREATMENT] * 3 + list(STRANGER_SOLUTION[3:])
    result = score_variant(variant, STRANGER)
    assert result["score"] == 8
    assert [p["reason"] for p in result["positions"][:3]] == ["treatment"] * 3


def test_got_it_ends_the_round_for_everyone_and_only_the_caller_gets_the_bonus():
    state = with_words(new(2, treatment=0), STRANGER)
    state = ENGINE.apply(state, 0, {"type": "set_variant", "cards": STRANGER_SOLUTION})
    state = ENGINE.apply(state, 1, {"type": "set_variant", "cards": STRANGER_SOLUTION})
    state = ENGINE.apply(state, 0, {"type": "got_it"})
    record = state.history[-1]
    assert record["scores"] == [10, 8]
    assert record["got_it_team"] == 0
    assert state.phase == "between"
    assert state.totals == [10, 8]


def test_exposed_treatment_cards_leave_the_game_after_scoring():
    state = with_words(new(1, variation="beta"), STRANGER)
    assert state.treatments == [3]
    state = ENGINE.apply(state, 0, {"type": "set_variant", "cards": ["*", "*", *STRANGER_SOLUTION[2:]]})
    state = ENGINE.apply(state, 0, {"type": "end_round", "reason": "timer"})
    assert state.treatments == [1]
    assert state.history[-1]["results"][0]["score"] == 8
    state = ENGINE.apply(state, 0, {"type": "next_round"})
    message = unchanged_after(state, 0, {"type": "set_variant", "cards": ["*", "*"]})
    assert message == "your team has only 1 Treatment Card left; this variant uses 2"


# ---------------------------------------------------------------- rounds, timing and word selection


def test_default_round_lasts_two_minutes_and_is_configurable():
    assert round_seconds(new()) == 120
    assert round_seconds(new(seconds=45)) == 45
    with pytest.raises(ValueError, match="seconds must be between 30 and 300"):
        new(seconds=20)
    with pytest.raises(ValueError, match="rounds must be between 1 and 16"):
        new(rounds=17)


def play_rounds(state, seat=0):
    """Yield each round's state, ending rounds by timer."""
    while True:
        yield state
        state = ENGINE.apply(state, seat, {"type": "end_round", "reason": "timer", "round": state.round})
        if state.over:
            return
        state = ENGINE.apply(state, seat, {"type": "next_round"})


def test_alpha_reduces_the_clock_by_five_seconds_each_round():
    seconds = [round_seconds(s) for s in play_rounds(new(variation="alpha"))]
    assert seconds == [120, 115, 110, 105, 100, 95, 90, 85]


def test_gamma_takes_each_rounds_time_from_the_countdown_stack_and_puts_the_card_at_the_bottom():
    state = new(variation="gamma", rounds=16)
    first_stack = list(state.countdown_stack)
    assert len(first_stack) == 15
    assert first_stack != sorted(first_stack)  # shuffled
    assert state.countdown == first_stack[0]
    assert round_seconds(state) == COUNTDOWN_CARDS[first_stack[0]].seconds
    after = ENGINE.apply(state, 0, {"type": "end_round", "reason": "timer"})
    assert after.countdown_stack == first_stack[1:] + first_stack[:1]
    seconds = [round_seconds(s) for s in play_rounds(state)]
    expected = [COUNTDOWN_CARDS[i].seconds for i in first_stack] + [COUNTDOWN_CARDS[first_stack[0]].seconds]
    assert seconds == expected


@pytest.mark.parametrize("levels", ["easy", "standard", "hard"])
def test_gamma_levels_choose_the_countdown_cards(levels):
    state = new(variation="gamma", gamma_levels=levels)
    assert {COUNTDOWN_CARDS[i].level for i in state.countdown_stack} == set(GAMMA_LEVELS[levels])
    assert len(state.countdown_stack) == 5 * len(GAMMA_LEVELS[levels])


def test_delta_word_is_letter_number_plus_countdown_offset_on_the_flipped_word_card():
    for seed in range(6):
        state = ENGINE.new_game(1, {"variation": "delta"}, seed)
        offset = COUNTDOWN_CARDS[state.countdown].offset
        card = state.word_stack[0]
        ref = state.word_refs[0]
        assert ref[0] == card
        entry = int(ref[1:])
        assert offset + 1 <= entry <= offset + 8
        assert state.words[0] == word_at(card, entry)
        after = ENGINE.apply(state, 0, {"type": "end_round", "reason": "timer"})
        assert after.word_stack == [*state.word_stack[1:], card]  # the used Word Card goes to the bottom
        assert after.countdown_stack[-1] == state.countdown


def test_without_delta_words_come_from_the_word_cards_and_never_repeat():
    states = list(play_rounds(new(rounds=16)))
    words = [s.words[0] for s in states]
    assert len(set(words)) == 16
    assert states[-1].used_refs == [s.word_refs[0] for s in states]
    assert all(word_at(s.word_refs[0][0], int(s.word_refs[0][1:])) == s.words[0] for s in states)
    assert all(conforms(word) for word in words)


def test_epsilon_gives_each_team_a_different_word():
    for seed in range(4):
        state = ENGINE.new_game(12, {"variation": "epsilon"}, seed)
        assert octagion_rules.has(state, "delta")
        for s in itertools.islice(play_rounds(state), 3):
            assert len(set(s.words)) == 12
            for word, ref in zip(s.words, s.word_refs, strict=True):
                assert word_at(ref[0], int(ref[1:])) == word


def test_epsilon_collision_turns_up_another_word_card():
    state = ENGINE.new_game(25, {"variation": "epsilon"}, 1)
    assert len(set(state.words)) == 25
    assert state.flipped_word_cards > 1  # 25 teams cannot share 8 entries of one card
    after = ENGINE.apply(state, 0, {"type": "end_round"})
    flipped = state.word_stack[: state.flipped_word_cards]
    assert after.word_stack[-len(flipped) :] == flipped


def test_zeta_allows_non_conforming_words_and_gives_treatment_cards():
    found = False
    for seed in range(40):
        state = ENGINE.new_game(1, {"variation": "zeta", "rounds": 16}, seed)
        assert state.treatments == [3]
        if any(not conforms(s.words[0]) for s in play_rounds(state)):
            found = True
            break
    assert found
    plain = [s.words[0] for s in play_rounds(new(rounds=16))]
    assert all(conforms(word) for word in plain)


def test_virulent_combines_beta_gamma_delta_and_epsilon():
    state = new(3, variation="virulent")
    assert state.options["variations"] == ["beta", "delta", "epsilon", "gamma"]
    assert state.treatments == [3, 3, 3]
    assert len(set(state.words)) == 3
    assert round_seconds(state) == COUNTDOWN_CARDS[state.countdown].seconds


def test_beta_sets_treatment_cards_per_team():
    state = new(3, variation="beta", treatment_per_team={"1": 0, "2": 5})
    assert state.treatments == [3, 0, 5]
    with pytest.raises(ValueError, match="Rule Beta"):
        new(2, variation="gamma", treatment_per_team={"0": 1})
    assert new(2).treatments == [0, 0]


def test_alpha_and_gamma_cannot_both_set_the_clock():
    with pytest.raises(ValueError, match="Alpha and Gamma both set the clock"):
        new(variation=["alpha", "gamma"])
    with pytest.raises(ValueError, match="unknown variation 'omega'"):
        new(variation="omega")


# ---------------------------------------------------------------- parsing and invalid input


@pytest.mark.parametrize(
    "text",
    [
        "s5 t8 r6 a1 n7 g2 e4 r3",
        "S5T8R6A1N7G2E4R3",
        "5 8 6 1 7 2 4 3",
        "58617243",
        "S5, t8,R6 a1 N7 g2 E4 r3",
    ],
)
def test_parser_accepts_every_form_a_player_types(text):
    assert STRANGER_SOLUTION == ["S5", "T8", "R6", "A1", "N7", "G2", "E4", "R3"]
    assert parse_variant(text, STRANGER) == STRANGER_SOLUTION


def test_parser_reads_treatment_cards_and_empty_positions():
    assert parse_variant("* _ 6 a1", STRANGER) == [TREATMENT, None, "R6", "A1", None, None, None, None]
    assert parse_variant("", STRANGER) == [None] * 8


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("N4", "there is no N4 in the deck: N comes as N3, N6, N7, N8"),
        ("Z1", "there is no Z1 in the deck: no card carries the letter Z"),
        ("S5 S5", "you used S5 twice; the deck has only one S5"),
        ("5 8 6 1 7 2 4 3 1", "a variant has at most 8 positions"),
        ("S5 T8 R6 A1 N7 G2 E4 R3 E8", "a variant has at most 8 positions; you gave 9"),
        ("S9", "card numbers go from 1 to 8, not 9"),
        ("S5 ?", "I can't read '?': write cards like S5, a number, * or _"),
        ("* *", "your team has only 1 Treatment Card left; this variant uses 2"),
    ],
)
def test_parser_errors_are_precise(text, message):
    with pytest.raises(IllegalAction) as error:
        parse_variant(text, STRANGER, treatments_left=1)
    assert str(error.value) == message


def test_invalid_actions_leave_the_state_unchanged():
    state = with_words(new(2, treatment=0), STRANGER)
    assert unchanged_after(state, 0, {"type": "set_variant", "cards": ["N4"]}).startswith("there is no N4")
    assert unchanged_after(state, 0, {"type": "set_variant", "cards": ["S5", "S5"]}).startswith("you used S5")
    assert unchanged_after(state, 0, {"type": "set_variant", "cards": ["S5"] + [None] * 8}).startswith(
        "a variant has at most 8"
    )
    assert unchanged_after(state, 0, {"type": "set_variant", "cards": ["*"]}) == (
        "your team has no Treatment Cards left; this variant uses 1"
    )
    assert unchanged_after(state, 7, {"type": "got_it"}) == "You are not playing in this game."
    assert unchanged_after(state, 0, {"type": "dance"}).startswith("Octagion has no action 'dance'")
    assert unchanged_after(state, 0, {"type": "next_round"}) == "the round is still running"
    ended = ENGINE.apply(state, 0, {"type": "end_round", "reason": "timer"})
    assert unchanged_after(ended, 0, {"type": "set_variant", "text": "5"}) == "the round is over"
    assert unchanged_after(ended, 1, {"type": "got_it"}) == "the round is over"
    assert unchanged_after(ended, 0, {"type": "end_round", "reason": "timer"}) == "the round is over"


def test_a_late_timer_for_an_old_round_is_rejected():
    state = new()
    state = ENGINE.apply(state, 0, {"type": "got_it"})
    state = ENGINE.apply(state, 0, {"type": "next_round"})
    message = unchanged_after(state, 0, {"type": "end_round", "reason": "timer", "round": 1})
    assert message == "round 1 is already over"
    assert len(ENGINE.apply(state, 0, {"type": "end_round", "reason": "timer", "round": 2}).history) == 2


def test_set_variant_from_text_and_place_one_card():
    state = with_words(new(), STRANGER)
    action = variant_action(state, 0, "5 8 6")
    assert action == {"type": "set_variant", "cards": ["S5", "T8", "R6"] + [None] * 5}
    state = ENGINE.apply(state, 0, {"type": "set_variant", "text": "5 8 6"})
    assert state.variants[0][:3] == ["S5", "T8", "R6"]
    state = ENGINE.apply(state, 0, {"type": "place", "position": 8, "card": "S5"})  # moving a card
    assert state.variants[0][0] is None
    assert state.variants[0][7] == "S5"
    state = ENGINE.apply(state, 0, {"type": "place", "position": 8, "card": None})
    assert state.variants[0][7] is None
    assert unchanged_after(state, 0, {"type": "place", "position": 9, "card": "S5"}) == "positions go from 1 to 8"


# ---------------------------------------------------------------- teams and party mode


def test_team_mode_any_member_edits_the_shared_variant_and_scores_go_to_every_member():
    state = with_words(new(3, teams={"0": "red", "1": "red", "2": "blue"}), STRANGER)
    assert state.teams == [0, 0, 1]
    state = ENGINE.apply(state, 0, {"type": "set_variant", "text": "5 8 6 1"})
    state = ENGINE.apply(state, 1, {"type": "place", "position": 5, "card": "N7"})
    assert state.variants[0][:5] == ["S5", "T8", "R6", "A1", "N7"]
    assert state.variants[1] == [None] * 8
    state = ENGINE.apply(state, 1, {"type": "set_variant", "cards": STRANGER_SOLUTION})
    state = ENGINE.apply(state, 1, {"type": "got_it"})
    assert state.totals == [10, 0]


def test_party_mode_splits_the_numbers_and_each_member_places_only_their_own():
    state = with_words(new(4, teams=[0, 0, 0, 1], party=True), STRANGER)
    assert [party_numbers(state, seat) for seat in range(4)] == [[1, 2, 3], [4, 5, 6], [7, 8], list(range(1, 9))]
    state = ENGINE.apply(state, 0, {"type": "set_variant", "text": "_ _ 3 1 _ 2"})  # R3 A1 G2
    message = unchanged_after(state, 0, {"type": "place", "position": 1, "card": "S5"})
    assert message == "in party mode you place only cards numbered 1, 2, 3; S5 is another team member's"
    state = ENGINE.apply(state, 1, {"type": "place", "position": 1, "card": "S5"})
    # Member 0 may not remove member 1's card either.
    assert "S5 is another team member's" in unchanged_after(state, 0, {"type": "set_variant", "cards": []})
    state = ENGINE.apply(state, 2, {"type": "place", "position": 2, "card": "T8"})
    assert state.variants[0][:4] == ["S5", "T8", "R3", "A1"]
    # A member who leaves hands their numbers to the others.
    state = ENGINE.apply(state, 2, {"type": "resign"})
    assert party_numbers(state, 0) == [1, 2, 3, 4]
    assert party_numbers(state, 1) == [5, 6, 7, 8]


def test_party_mode_limits_a_team_to_eight_players():
    with pytest.raises(ValueError, match="at most 8 players"):
        new(9, teams=[0] * 9, party=True)


# ---------------------------------------------------------------- whole games


def test_a_full_eight_round_game_and_its_outcome():
    state = new(3, teams=[0, 1, 2], seed=4)
    assert ENGINE.to_act(state) == [0, 1, 2]
    for number in range(1, 9):
        assert state.round == number
        assert state.phase == "playing"
        state = ENGINE.apply(state, 0, {"type": "set_variant", "cards": solution(state.words[0])})
        state = ENGINE.apply(state, 1, {"type": "set_variant", "cards": solution(state.words[0])[:6]})
        state = ENGINE.apply(state, 2, {"type": "set_variant", "cards": solution(state.words[0])[:6]})
        assert ENGINE.outcome(state) is None
        state = ENGINE.apply(state, 0, {"type": "got_it"})
        if number < 8:
            assert ENGINE.legal_actions(state, 1) == [{"type": "next_round"}, {"type": "resign"}]
            state = ENGINE.apply(state, 2, {"type": "next_round"})
    assert state.over
    assert state.phase == "between"  # the last round was scored
    assert ENGINE.to_act(state) == []
    outcome = ENGINE.outcome(state)
    assert outcome == state.outcome
    assert outcome.reason == "all rounds played"
    assert outcome.teams == (0, 1, 2)
    assert outcome.scores == (80.0, 48.0, 48.0)
    assert outcome.ranks == (1, 2, 2)
    assert outcome.winners == (0,)
    assert len(state.history) == 8
    record = state.history[0]
    assert record["solutions"][record["words"][0]]["count"] == solution_count(record["words"][0])
    assert unchanged_after(state, 0, {"type": "got_it"}) == "The game is over."
    assert [event.kind for event in state.events] == ["got_it", "round_end", "end"]
    assert state.events[-1].data == {"reason": "all rounds played", "winners": [0], "draw": False}


def test_resigning_ends_a_two_team_game_and_the_leaver_ranks_last():
    state = new(2, teams=[0, 1])
    state = ENGINE.apply(state, 1, {"type": "resign"})
    assert state.over
    assert state.phase == "playing"  # the round was not scored
    outcome = ENGINE.outcome(state)
    assert outcome.ranks == (1, 2)
    assert outcome.reason == "the other teams left"


def test_a_team_member_leaving_keeps_the_team_playing():
    state = new(3, teams=[0, 0, 1])
    state = ENGINE.apply(state, 0, {"type": "resign"})
    assert state.phase == "playing"
    assert not state.over
    assert state.events == [Event(1, 0, "resign", {"team": 0, "team_out": False})]
    assert ENGINE.to_act(state) == [1, 2]
    assert unchanged_after(state, 0, {"type": "got_it"}) == "you left this game"
    assert unchanged_after(state, 0, {"type": "set_variant", "text": "5"}) == "you left this game"
    assert unchanged_after(state, 0, {"type": "resign"}) == "you left this game"
    assert ENGINE.legal_actions(state, 0) == []
    # The bot's timer may still end the round through any seat.
    assert ENGINE.apply(state, 0, {"type": "end_round", "reason": "timer"}).phase == "between"


def test_solo_player_resigning_ends_the_game():
    state = ENGINE.apply(new(), 0, {"type": "resign"})
    assert ENGINE.outcome(state).reason == "everyone left"


def test_dump_and_load_round_trip_through_json():
    state = new(3, variation="virulent", teams=[0, 1, 1])
    state = ENGINE.apply(state, 1, {"type": "set_variant", "cards": ["*", None, "S5"]})
    state = ENGINE.apply(state, 0, {"type": "got_it"})
    data = json.loads(json.dumps(ENGINE.dump(state)))
    assert ENGINE.dump(ENGINE.load(data)) == ENGINE.dump(state)
    assert ENGINE.load(data) == state
    assert data["schema"] == 3
    with pytest.raises(ValueError, match="schema 99"):
        ENGINE.load({**data, "schema": 99})


def test_apply_never_mutates_its_input():
    state = new(2)
    snapshot = json.dumps(ENGINE.dump(state), sort_keys=True)
    ENGINE.apply(state, 0, {"type": "set_variant", "cards": solution(state.words[0])})
    ENGINE.apply(state, 1, {"type": "got_it"})
    assert json.dumps(ENGINE.dump(state), sort_keys=True) == snapshot


def test_same_seed_replays_the_same_words():
    first = [s.words for s in play_rounds(ENGINE.new_game(2, {"variation": "virulent"}, 99))]
    second = [s.words for s in play_rounds(ENGINE.new_game(2, {"variation": "virulent"}, 99))]
    assert first == second


# ---------------------------------------------------------------- events, malformed actions, stored games


def test_every_action_records_events_and_a_variant_event_carries_no_cards():
    state = with_words(new(2, rounds=2), STRANGER)
    assert state.ply == 0
    assert state.events == [Event(0, None, "round_start", {"round": 1, "seconds": 120})]
    state = ENGINE.apply(state, 1, {"type": "set_variant", "cards": STRANGER_SOLUTION})
    assert state.events == [Event(1, 1, "variant", {"team": 1})]
    state = ENGINE.apply(state, 0, {"type": "place", "position": 2, "card": "T8"})
    assert state.events == [Event(2, 0, "variant", {"team": 0})]
    state = ENGINE.apply(state, 1, {"type": "got_it", "round": 1})
    assert state.events == [
        Event(3, 1, "got_it", {"team": 1, "round": 1}),
        Event(
            3,
            None,
            "round_end",
            {"round": 1, "reason": "got it", "got_it_team": 1, "scores": [1, 10], "totals": [1, 10]},
        ),
    ]
    state = ENGINE.apply(state, 0, {"type": "next_round"})
    assert state.events == [Event(4, None, "round_start", {"round": 2, "seconds": 120})]
    state = ENGINE.apply(state, 0, {"type": "end_round", "reason": "timer", "round": 2})
    assert [(event.kind, event.seat) for event in state.events] == [("round_end", None), ("end", None)]
    assert state.events[0].data["reason"] == "timer"
    assert state.events[1].data == {"reason": "all rounds played", "winners": [1], "draw": False}
    assert state.ply == 5
    assert state.outcome == Outcome((2, 1), (1.0, 10.0), "all rounds played", (0, 1))


@pytest.mark.parametrize(
    "action",
    [
        None,
        "got_it",
        {"type": None},
        {"type": "got_it", "round": "1"},
        {"type": "got_it", "round": True},
        {"type": "got_it", "extra": 1},
        {"type": "end_round", "reason": 5},
        {"type": "next_round", "round": 1},
        {"type": "set_variant"},
        {"type": "set_variant", "text": "5", "cards": []},
        {"type": "set_variant", "text": ["5"]},
        {"type": "set_variant", "cards": "S5 T8"},
        {"type": "set_variant", "cards": [5, 8]},
        {"type": "set_variant", "cards": [["S5"]]},
        {"type": "set_variant", "cards": [{"card": "S5"}]},
        {"type": "place", "position": 1},
        {"type": "place", "card": "S5"},
        {"type": "place", "position": "1", "card": "S5"},
        {"type": "place", "position": 1.0, "card": "S5"},
        {"type": "place", "position": 1, "card": ["S5"]},
        {"type": "place", "position": 0, "card": "S5"},
    ],
)
def test_malformed_actions_are_refused_and_change_nothing(action):
    state = with_words(new(2), STRANGER)
    assert unchanged_after(state, 0, action)


def test_a_system_action_may_come_from_a_seat_that_left_but_nothing_else():
    state = ENGINE.apply(new(3, teams=[0, 0, 1]), 0, {"type": "resign"})
    assert ENGINE.to_act(state) == [1, 2]
    state = ENGINE.apply(state, 0, {"type": "end_round", "reason": "timer"})
    assert state.phase == "between"
    state = ENGINE.apply(state, 0, {"type": "next_round"})
    assert state.round == 2
    assert unchanged_after(state, 0, {"type": "place", "position": 1, "card": None}) == "you left this game"


def new_first_edition(players: int = 1, **options):
    """A game dealt from the first Word Cards, as every game stored before their editions was."""
    return new(players, word_cards=FIRST_WORD_CARDS_EDITION, **options)


def as_schema_1(data):
    """What the schema-1 engine stored for the same game: "over" in ``phase`` and ``end_reason``, no count."""
    old = {key: value for key, value in data.items() if key not in ("ply", "events", "outcome")}
    old["schema"] = 1
    assert data["options"]["word_cards"] == FIRST_WORD_CARDS_EDITION, "schema 1 had only the first Word Cards"
    old["options"] = {key: value for key, value in data["options"].items() if key != "word_cards"}
    old["end_reason"] = data["outcome"]["reason"] if data["outcome"] else None
    if data["outcome"]:
        old["phase"] = "over"
    return json.loads(json.dumps(old))


def finished_by_rounds():
    state = new_first_edition(3, teams=[0, 1, 1], rounds=2)
    for _ in range(2):
        state = ENGINE.apply(state, 0, {"type": "set_variant", "cards": solution(state.words[0])})
        state = ENGINE.apply(state, 2, {"type": "set_variant", "cards": solution(state.words[0])[:5]})
        state = ENGINE.apply(state, 1, {"type": "got_it"})
        if not state.over:
            state = ENGINE.apply(state, 1, {"type": "next_round"})
    return state


def left_mid_round():
    state = new_first_edition(3, teams=[0, 1, 1], rounds=3)
    state = ENGINE.apply(state, 0, {"type": "got_it"})
    state = ENGINE.apply(state, 0, {"type": "next_round"})
    state = ENGINE.apply(state, 0, {"type": "set_variant", "cards": solution(state.words[0])[:2]})
    state = ENGINE.apply(state, 1, {"type": "resign"})
    return ENGINE.apply(state, 2, {"type": "resign"})


def left_between_rounds():
    state = new_first_edition(2, rounds=3)
    state = ENGINE.apply(state, 0, {"type": "end_round", "reason": "timer"})
    return ENGINE.apply(state, 0, {"type": "resign"})


def everyone_left():
    return ENGINE.apply(new_first_edition(1), 0, {"type": "resign"})


@pytest.mark.parametrize("make", [finished_by_rounds, left_mid_round, left_between_rounds, everyone_left])
def test_a_finished_game_stored_by_schema_1_loads_with_the_same_outcome(make):
    state = make()
    assert state.over
    data = ENGINE.dump(state)
    loaded = ENGINE.load(as_schema_1(data))
    assert loaded.outcome == state.outcome
    assert loaded.phase == state.phase
    assert loaded.ply == state.ply  # these games took the fewest actions that reach them
    assert {**ENGINE.dump(loaded), "events": []} == {**data, "events": []}
    assert ENGINE.to_act(loaded) == []


def test_a_running_game_stored_by_schema_1_plays_on():
    state = new_first_edition(3, teams=[0, 1, 1], rounds=3)
    state = ENGINE.apply(state, 1, {"type": "set_variant", "text": "1"})
    loaded = ENGINE.load(as_schema_1(ENGINE.dump(state)))
    assert loaded.outcome is None
    assert loaded.ply == 1
    assert loaded.events == []
    assert (
        ENGINE.dump(ENGINE.apply(loaded, 0, {"type": "got_it"}))["totals"]
        == ENGINE.dump(ENGINE.apply(state, 0, {"type": "got_it"}))["totals"]
    )


def test_the_shipped_solution_counts_are_the_decks():
    """The word list carries each word's solution count (so no run time checks the whole list);
    a correction of the deck must be followed by `scripts/make_octagion_words.py --annotate`."""
    from engines.octagion import clear_solver_cache, solution_count
    from engines.octagion.cards import word_solutions

    clear_solver_cache()
    shipped = word_solutions()
    assert len(shipped) == 2979  # 3,000 before the family filter of 2026-11-23
    assert {word: solution_count(word) for word in shipped} == shipped
