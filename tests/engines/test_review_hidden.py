"""Reviews of games with hidden information (issue #40): a move is judged only on what its player
could know, averaged over the hidden cards or shields consistent with what that player had seen."""

from __future__ import annotations

import pytest

from engines.registry import engine, package
from engines.review import Played, judge_ply, review_game

# Bo (seat 1) has 27 table cards and an Octa: the 5♣ on his club run wins. Ada (seat 0) sees her
# hand, the pool, the runs, the discard and the action piles, never Bo's hand or the stock.
BO_RUNS = [
    ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H"],
    ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S"],
    ["2D", "3D", "4D", "5D", "6D", "7D", "8D"],
    ["2C", "3C", "4C"],
]
ADA_HAND = ["6C", "7C", "8C", "10D", "AS", "9H", "9D", "3H"]


def octa_deal(bo_hand: list[str], king_cards: list[str]) -> dict:
    """Ada starts; the King she turns up matches the Queen of spades, so she may take two cards from
    the stock (``king_cards``, hidden) or from the discard pile."""
    return {
        "deal": {
            "first": 0,
            "runs": [[], BO_RUNS],
            "hands": [ADA_HAND, bo_hand],
            "pool": ["3C", "4S", "5S", "6S", "7D", "8D", "9S", "10D"],
            "stock_top": ["2C", *king_cards, "4H"],
            "discard": ["10H", "5H"],
            "action_piles": [["JH"], ["QS"]],
            "action_stack_top": ["KS"],
        }
    }


# The same table for Ada. In LUCKY the stock holds the 5♣ and 9♣ around her clubs and Bo has no
# 5♣; in UNLUCKY the stock holds two aces and Bo has the 5♣ that wins him the game.
LUCKY = octa_deal(["7S", "9C", "10C", "AD", "2H", "3S", "4D", "6H"], ["5C", "9C"])
UNLUCKY = octa_deal(["5C", "9C", "10C", "AD", "2H", "3S", "4D", "6H"], ["AC", "AC"])
SAMPLES = 6


def ada_turn(options: dict) -> list[tuple[int, dict]]:
    """Ada turns the King onto pile 1 (it matches: she may use it), then plays at every step the
    best move the review finds on what she could see, until her turn ends."""
    octa = engine("octa")
    actions: list[tuple[int, dict]] = [(0, {"type": "flip", "pile": 0})]
    state = octa.replay(2, options, 5, actions)
    assert state.step == "action", "the King matches the Queen: Ada may use it"
    while state.current == 0 and not state.over:
        legal = [a for a in octa.legal_actions(state, 0) if a["type"] != "resign"]
        so_far = Played("octa", 2, options, 5, (*actions, (0, legal[0])))
        judged = judge_ply(so_far, len(actions) + 1, SAMPLES, viewer=0)
        best = next(a for a in legal if octa.notation(state, 0, a) == judged.best)
        actions.append((0, best))
        state = octa.apply(state, 0, best)
    return actions


def test_an_octa_move_right_on_what_the_player_saw_is_not_marked_though_the_hidden_card_lost_it():
    octa = engine("octa")
    lucky, unlucky = ada_turn(LUCKY), ada_turn(UNLUCKY)
    assert lucky[:2] == unlucky[:2], "Ada could not tell the two games apart: she chose the same with the King"
    assert lucky[1][1]["type"] in ("use_action", "skip_action")
    # Judged on the true cards, taking the stock's 5♣ and 9♣ around her clubs would be best in LUCKY
    # and not in UNLUCKY: the King's judgement below is the same in both, so it was not.

    bo = [(1, {"type": "flip", "pile": 0}), (1, {"type": "add_to_run", "run": 3, "cards": ["5C"]})]
    lost = octa.replay(2, UNLUCKY, 5, [*unlucky, *bo])
    assert lost.outcome.winners == (1,), "Bo's hidden 5♣ won him the game"

    in_lucky = review_game(Played("octa", 2, LUCKY, 5, tuple(lucky)), seat=0, nodes=SAMPLES, viewer=0)
    in_unlucky = review_game(Played("octa", 2, UNLUCKY, 5, tuple([*unlucky, *bo])), seat=0, nodes=SAMPLES, viewer=0)
    assert in_unlucky.own()[1] == in_lucky.own()[1], "the King judged on what Ada saw: the draw changes nothing"
    assert in_unlucky.own()[1].mark == "best"
    assert [move.mark for move in in_unlucky.own()[1:]] == ["best"] * (len(unlucky) - 1)
    assert in_unlucky.worst() == []
    assert in_unlucky.advantage()[-1] == 0.0, "the graph still ends where the game did: lost"
    bo_moves = [move for move in in_unlucky.moves if move.seat == 1]
    assert [move.mark for move in bo_moves] == [None, None], "Bo's moves are not judged in Ada's review"


def test_a_review_never_names_a_card_of_the_other_hand():
    unlucky = ada_turn(UNLUCKY)
    bo = [(1, {"type": "flip", "pile": 0}), (1, {"type": "add_to_run", "run": 3, "cards": ["5C"]})]
    review = review_game(Played("octa", 2, UNLUCKY, 5, tuple([*unlucky, *bo])), seat=0, nodes=SAMPLES, viewer=0)
    ada_knows = {"5C"}  # Bo's only card Ada ever sees: he plays it
    bo_hidden = set(UNLUCKY["deal"]["hands"][1]) - set(ADA_HAND) - ada_knows
    text = " ".join(f"{move.played} {move.best}" for move in review.moves)
    assert not [card for card in bo_hidden if f"={card}" in text or f",{card}" in text]


def self_play(game: str, seed: int, limit: int) -> tuple[int, list[tuple[int, dict]]]:
    played = engine(game)
    state = played.new_game(2, {}, seed)
    actions: list[tuple[int, dict]] = []
    while not state.over and len(actions) < limit:
        seat = played.to_act(state)[0]
        action = package(game).choose_action(state, seat, "easy", seed)
        actions.append((seat, action))
        state = played.apply(state, seat, action)
    return seed, actions


@pytest.mark.parametrize("game", ["octa", "octagone", "octiles"])
def test_a_forced_move_is_never_marked(game):
    played = engine(game)
    seed, actions = self_play(game, 11, 40)
    forced = []
    for ply, (seat, _) in enumerate(actions, start=1):
        state = played.replay(2, {}, seed, actions[: ply - 1])
        if len([a for a in played.legal_actions(state, seat) if a["type"] != "resign"]) == 1:
            forced.append(ply)
    nodes = 4 if game == "octa" else None
    review = review_game(Played(game, 2, {}, seed, tuple(actions)), seat=0, nodes=nodes, viewer=0)
    judged = {move.ply: move for move in review.moves}
    assert all(judged[ply].mark is None for ply in forced if ply in judged)
    assert all(move.mark is not None for move in review.own() if move.ply not in forced)
    if game == "octa":
        assert forced, "an Octa game has steps with one thing to do (the turn's last discard)"
