"""Octagone's computer opponent.

Levels: ``easy`` plays a random legal move; ``medium`` looks one move ahead; ``hard`` also
weighs the opponent's best reply (two players). Only fair information is used: its own hand
and public facts. With two players the opponent's hand is public in effect (all 42 shields
minus one's own minus those on the board), so simulating with the engine reveals nothing
new; with four players the other hands stay hidden, and the computer judges a move by the
box it designates and by the shields still unseen.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from engines.base import rng_from
from engines.octagone.board import BOXES, COLOURS, JOKER, JOKERS, SHIELDS_PER_COLOUR, WHITE_LADY, box_colour
from engines.octagone.rules import (
    OctagoneEngine,
    OctagoneState,
    aim_options,
    placeable_shields,
    team_of,
    team_shields_left,
)

ENGINE_FOR_AI = OctagoneEngine()  # engines are stateless: this is the same rules as the package's ENGINE
LEVELS = ("easy", "medium", "hard")
WIN = 1000.0
# How much each feature of a position is worth, in the unit of one shield fewer than the opponent.
ENDGAME_WEIGHTS = {
    "shield": 10.0,  # each shield fewer than the opponent
    "joker": 3.0,  # each joker in reserve: it fits any box
    "tempo": 6.0,  # the opponent had to skip, so I play again
    "forced_joker": 3.0,  # the opponent must spend a joker
    "missing_colour": 0.5,  # each free box of a colour a player no longer holds
}


def choose_action(state: OctagoneState, seat: int, level: str = "medium", seed: int = 0) -> dict[str, Any]:
    """A legal action for ``seat`` (never a resignation)."""
    engine = ENGINE_FOR_AI
    moves = [action for action in engine.legal_actions(state, seat) if action["type"] != "resign"]
    if not moves:
        raise ValueError("the computer has no move to make here")
    rng = rng_from(seed, "octagone-ai", state.ply, seat)
    if level == "easy" or len(moves) == 1:
        return rng.choice(moves)
    if state.players == 4:
        score = lambda move: _four_player_score(state, seat, move)  # noqa: E731
    elif level == "hard" and not state.opening:
        score = lambda move: _two_ply_score(state, seat, move)  # noqa: E731
    else:
        score = lambda move: _evaluate(engine.apply(state, seat, move), seat)  # noqa: E731
    rng.shuffle(moves)  # break ties differently from game to game
    return max(moves, key=score)


# --- two players: the full state is fair game ----------------------------------------------------


def _two_ply_score(state: OctagoneState, seat: int, move: dict[str, Any]) -> float:
    after = ENGINE_FOR_AI.apply(state, seat, move)
    if after.over or after.to_move == seat:
        return _evaluate(after, seat)
    opponent = after.to_move
    replies = [reply for reply in ENGINE_FOR_AI.legal_actions(after, opponent) if reply["type"] != "resign"]
    return min(_evaluate(ENGINE_FOR_AI.apply(after, opponent, reply), seat) for reply in replies)


def _evaluate(state: OctagoneState, seat: int) -> float:
    """Higher is better for ``seat``: fewer shields than the opponent, jokers in reserve, tempo."""
    opponent = next(other for other in range(state.players) if other not in team_of(state, seat))
    mine, theirs = team_shields_left(state, seat), team_shields_left(state, opponent)
    if state.over:
        rank = state.outcome.ranks
        if rank[seat] < rank[opponent]:
            return WIN + theirs - mine
        if rank[seat] > rank[opponent]:
            return -WIN + theirs - mine
        return 0.0
    weights = ENDGAME_WEIGHTS
    value = weights["shield"] * (theirs - mine)
    value += weights["joker"] * (state.hands[seat][JOKER] - state.hands[opponent][JOKER])
    if state.to_move == seat:  # the opponent had to skip: I play again
        value += weights["tempo"]
    elif state.to_move == opponent and placeable_shields(state, opponent) == [JOKER]:
        value += weights["forced_joker"]
    value += weights["missing_colour"] * (_stranded_boxes(state, opponent) - _stranded_boxes(state, seat))
    return value


def _stranded_boxes(state: OctagoneState, seat: int) -> int:
    """Free boxes of colours ``seat`` no longer holds: where a target would cost a joker or a skip."""
    hand = state.hands[seat]
    return sum(1 for box in BOXES if box not in state.board and hand[box_colour(box)] == 0)


# --- four players: other hands stay hidden -------------------------------------------------------


def _unseen_counts(state: OctagoneState, seat: int) -> Counter[str]:
    """Coloured shields and jokers neither in ``seat``'s hand nor on the board."""
    unseen: Counter[str] = Counter({colour: SHIELDS_PER_COLOUR for colour in COLOURS})
    unseen[JOKER] = JOKERS
    for placed in state.board.values():
        if placed.shield != WHITE_LADY:
            unseen[placed.shield] -= 1
    for kind, count in state.hands[seat].items():
        unseen[kind] -= count
    return unseen


def _four_player_score(state: OctagoneState, seat: int, move: dict[str, Any]) -> float:
    """Send the next (opposing) player to a colour that is scarce among unseen shields; keep jokers."""
    shield = WHITE_LADY if move["type"] == "white_lady" else move["shield"]
    box = move.get("box")
    options = {option["direction"]: option for option in aim_options(state, shield, box)}
    unseen = _unseen_counts(state, seat)
    value = -ENDGAME_WEIGHTS["joker"] if shield == JOKER else 0.0
    designated = options.get(move["direction"])
    if designated is None:  # the placement ends the game: good only if our pair is ahead
        return value + (WIN if _pair_ahead_after(state, seat, shield) else -WIN)
    colour = designated["colour"]
    value -= ENDGAME_WEIGHTS["missing_colour"] * unseen[colour]
    if state.hands[seat][colour] or state.hands[seat][JOKER] > (shield == JOKER):
        value += ENDGAME_WEIGHTS["missing_colour"]  # if everyone skips, it comes back to me and I can play
    return value


def _pair_ahead_after(state: OctagoneState, seat: int, shield: str) -> bool:
    ours = team_shields_left(state, seat) - (shield != WHITE_LADY)
    theirs = team_shields_left(state, (seat + 1) % state.players)
    return ours < theirs
