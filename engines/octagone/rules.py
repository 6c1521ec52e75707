"""Octagone rules: the deal, the White Lady's opening, aimed shields, skips, the end and scoring.

Seats play in clockwise order 0, 1, 2, 3 (four players: A1, B1, A2, B2), so the pairs are
seats {0, 2} and {1, 3}. Actions:

* ``{"type": "white_lady", "box": "C4", "direction": "NE"}``: the starter's opening move.
* ``{"type": "place", "shield": "green", "direction": "SW"}``: a coloured shield (its colour
  name) or ``"joker"`` on the target box; ``"box"`` may be given but must be the target box.
* ``{"type": "resign"}``: any seat, while the game runs (the resigner's pair loses).

Events (``state.events``, the last action's only):

* ``white_lady`` (seat): ``box``, ``direction``, ``target`` (the box she designates);
* ``place`` (seat): ``shield``, ``box``, ``direction``, ``target`` (None: no free box left);
* ``white_lady_removed`` (no seat): ``box`` she leaves, after the turn that follows hers;
* ``skip`` (seat): ``box``, the target the seat holds no fitting shield for (skipped turns
  happen inside the action that led to them);
* ``resign`` (seat) and ``end`` (no seat), from the kit.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, ClassVar

from engines.base import Game, GameState, IllegalAction, Outcome, ranks_from_scores, rng_from
from engines.octagone.board import (
    BOXES,
    COLOUR_ROW,
    COLOURS,
    DIRECTIONS,
    JOKER,
    JOKERS,
    SHIELDS_PER_COLOUR,
    WHITE_LADY,
    box_colour,
    connection_line,
    ray,
)

BASIC = "basic"
ADVANCED = "advanced"
LEVELS = (BASIC, ADVANCED)
SHIELD_KINDS: tuple[str, ...] = (*COLOURS, JOKER)

# Deal sizes from the seed: (jokers, coloured shields) per player.
DEAL = {2: (3, 18), 4: (1, 9)}

# Four players: who takes each pair's extra joker unless the pair chooses (decision 2026-11-23).
DEFAULT_EXTRA_JOKER_SEATS = (0, 1)

# Outcome reasons (the result line says "won (last shield placed)").
END_ALL_PLACED = "last shield placed"
END_NO_AIM = "no free box to aim at"
END_NO_SHIELD = "no shield fits the target"
END_RESIGN = "resignation"


@dataclass(frozen=True)
class Placement:
    shield: str  # a colour name, "joker" or "white_lady"
    direction: str
    seat: int
    ply: int  # the ply that placed it (1 = the White Lady)


@dataclass(kw_only=True)
class OctagoneState(GameState):
    level: str
    open_hands: bool
    starter: int
    hands: list[dict[str, int]]  # per seat: shield kind -> count, every kind listed
    board: dict[str, Placement] = field(default_factory=dict)
    white_lady: str | None = None  # her box while she stands on the board
    last_box: str | None = None  # box of the last placed shield (the White Lady counts)
    target: str | None = None  # the box the player to move must fill
    to_move: int | None = None  # None once the game is over

    @property
    def opening(self) -> bool:
        return self.last_box is None and not self.over


# --- small public helpers -------------------------------------------------------------------


def team_of(state: OctagoneState, seat: int) -> tuple[int, ...]:
    """The seats scoring together with ``seat`` (itself alone with two players)."""
    if state.players == 4:
        return (seat % 2, seat % 2 + 2)
    return (seat,)


def shields_left(state: OctagoneState, seat: int) -> int:
    return sum(state.hands[seat].values())


def team_shields_left(state: OctagoneState, seat: int) -> int:
    return sum(shields_left(state, member) for member in team_of(state, seat))


def fits(shield: str, box: str) -> bool:
    """A shield may go on a box of its own colour; a joker goes anywhere."""
    return shield == JOKER or shield == box_colour(box)


def placeable_shields(state: OctagoneState, seat: int) -> list[str]:
    """The shield kinds ``seat`` holds that may go on the target box (colour first, then joker)."""
    if state.target is None:
        return []
    return [kind for kind in SHIELD_KINDS if state.hands[seat][kind] > 0 and fits(kind, state.target)]


def can_play(state: OctagoneState, seat: int) -> bool:
    return bool(placeable_shields(state, seat))


def designated_box(
    occupied: set[str] | frozenset[str], box: str, direction: str, shield: str, level: str
) -> str | None:
    """The box a shield on ``box`` aimed at ``direction`` designates, or None if there is none.

    First free box along the arrow, occupied boxes skipped; advanced level: a joker designates
    the last free box instead, and an arrow pointing off the board from a perimeter box
    continues from the opposite end of the same line.
    """
    line = ray(box, direction)
    if not line and level == ADVANCED:
        line = connection_line(box, direction)
    free = [candidate for candidate in line if candidate not in occupied]
    if not free:
        return None
    return free[-1] if (shield == JOKER and level == ADVANCED) else free[0]


def _occupied_after(state: OctagoneState, box: str) -> set[str]:
    """Occupied boxes once a shield stands on ``box`` and the turn is over.

    The White Lady leaves after the turn that follows hers, so the next player's target is
    found on the board without her.
    """
    occupied = set(state.board) | {box}
    if state.white_lady is not None and not state.opening:
        occupied.discard(state.white_lady)
    return occupied


def aim_options(state: OctagoneState, shield: str, box: str | None = None) -> list[dict[str, str]]:
    """Directions that designate a free box for ``shield`` placed on ``box`` (default: the target).

    Each entry is ``{"direction": "NE", "box": "B5", "colour": "sky"}``: menus can show
    "NE -> box B5 (sky)". Empty when the shield cannot be aimed at any free box (placing it
    then ends the game, with any direction).
    """
    box = box or state.target
    if box is None:
        return []
    occupied = _occupied_after(state, box)
    options = []
    for direction in DIRECTIONS:
        designated = designated_box(occupied, box, direction, shield, state.level)
        if designated is not None:
            options.append({"direction": direction, "box": designated, "colour": box_colour(designated)})
    return options


@cache
def _openings(level: str) -> tuple[tuple[str, str], ...]:
    """Every White Lady opening (box, direction) on the empty board: the same in every game of a
    level, so worked out once (336 aims were tried at every click of the opening's menu)."""
    return tuple(
        (box, direction)
        for box in BOXES
        for direction in DIRECTIONS
        if designated_box({box}, box, direction, WHITE_LADY, level) is not None
    )


# --- stored games -------------------------------------------------------------------------------

_SCHEMA_1_REASONS = {
    "empty_hand": END_ALL_PLACED,
    "no_aim": END_NO_AIM,
    "no_shield": END_NO_SHIELD,
    "resign": END_RESIGN,
}


def _from_schema_1(data: dict[str, Any]) -> dict[str, Any]:
    """Schema 1 (``schema_version``, an ``actions`` counter, every action's events as dicts, a
    ``result`` dict) to schema 2 (``ply``, the last action's events as Event records, an Outcome)."""
    data = dict(data)
    data.pop("schema_version", None)
    ply = data.pop("actions")
    data["ply"] = ply
    data["board"] = {
        box: {key: value for key, value in placed.items() if key != "action"} | {"ply": placed["action"]}
        for box, placed in data["board"].items()
    }
    result = data.pop("result", None)
    players = data["players"]
    teams = [seat % 2 for seat in range(players)] if players == 4 else None
    outcome = None
    if result is not None:
        ranks = list(result["ranks"])
        winners = [seat for seat, rank in enumerate(ranks) if rank == 1]
        outcome = {
            "ranks": ranks,
            "scores": [float(score) for score in result["scores"]],
            "reason": _SCHEMA_1_REASONS[result["condition"]],
            "teams": teams,
        }
    data["outcome"] = outcome
    last = [old for old in data.get("events", []) if old.get("action") == ply]
    for index in range(len(last) - 1):  # schema 1 noted her leaving before the placement that made her leave
        if last[index]["type"] == "white_lady_removed" and last[index + 1]["type"] == "place":
            last[index], last[index + 1] = last[index + 1], last[index]
    events = []
    for old in last:
        kind = old["type"]
        event_data = {key: value for key, value in old.items() if key not in ("type", "action", "seat")}
        if kind == "end" and outcome is not None:
            event_data = {"reason": outcome["reason"], "winners": winners, "draw": len(winners) == players > 1}
        events.append({"ply": ply, "seat": old.get("seat"), "kind": kind, "data": event_data})
    data["events"] = events
    data["schema"] = 2
    return data


# --- the engine -------------------------------------------------------------------------------


class OctagoneEngine(Game[OctagoneState]):
    name = "octagone"
    title = "Octagone"
    min_players = 2
    max_players = 4
    state_class = OctagoneState
    schema = 2
    actions: ClassVar = {
        "white_lady": {"box": str, "direction": str},
        "place": {"shield": str, "direction": str, "box?": str},
    }
    migrations: ClassVar = {1: _from_schema_1}

    # -- creation

    def new_game(self, players: int, options: Mapping[str, Any], seed: int) -> OctagoneState:
        """Options: ``level`` (basic or advanced), ``open_hands`` and, for four players,
        ``extra_joker_seats``: one seat of each pair, e.g. [2, 1] (default [0, 1])."""
        if players not in DEAL:
            raise ValueError("Octagone is played by 2 or 4 players")
        level = options.get("level", ADVANCED)
        if level not in LEVELS:
            raise ValueError(f"level must be one of {', '.join(LEVELS)}")
        if players == 4 and level != ADVANCED:
            raise ValueError("four players play the advanced level only")
        starter = rng_from(seed, "starter").randrange(players)
        return OctagoneState(
            seed=seed,
            players=players,
            schema=self.schema,
            level=level,
            open_hands=bool(options.get("open_hands", False)),
            starter=starter,
            hands=self._deal(players, seed, options.get("extra_joker_seats")),
            to_move=starter,
        )

    @staticmethod
    def _deal(players: int, seed: int, extra_joker_seats: Any) -> list[dict[str, int]]:
        jokers_each, coloured_each = DEAL[players]
        pool = [colour for colour in COLOURS for _ in range(SHIELDS_PER_COLOUR)]
        rng_from(seed, "deal").shuffle(pool)
        hands = []
        for seat in range(players):
            hand = dict.fromkeys(SHIELD_KINDS, 0)
            for colour in pool[seat * coloured_each : (seat + 1) * coloured_each]:
                hand[colour] += 1
            hand[JOKER] = jokers_each
            hands.append(hand)
        if players == 4:
            for seat in _extra_joker_seats(extra_joker_seats):
                hands[seat][JOKER] += 1
        assert sum(sum(hand.values()) for hand in hands) == len(COLOURS) * SHIELDS_PER_COLOUR + JOKERS
        return hands

    # -- queries

    def to_act(self, state: OctagoneState) -> list[int]:
        return [] if state.over or state.to_move is None else [state.to_move]

    def teams(self, state: OctagoneState) -> tuple[int, ...] | None:
        """Four players: the pairs {0, 2} and {1, 3}; two players play for themselves."""
        return tuple(seat % 2 for seat in range(state.players)) if state.players == 4 else None

    def scores(self, state: OctagoneState) -> tuple[float, ...]:
        """Shields left, counted per pair with four players (fewest is best)."""
        return tuple(float(team_shields_left(state, seat)) for seat in range(state.players))

    def legal_actions(self, state: OctagoneState, seat: int) -> list[dict[str, Any]]:
        if state.over or not 0 <= seat < state.players:
            return []
        actions: list[dict[str, Any]] = []
        if seat == state.to_move:
            if state.opening and not state.board:
                actions.extend({"type": "white_lady", "box": b, "direction": d} for b, d in _openings(state.level))
            elif state.opening:
                for box in BOXES:
                    for option in aim_options(state, WHITE_LADY, box):
                        actions.append({"type": "white_lady", "box": box, "direction": option["direction"]})
            else:
                for shield in placeable_shields(state, seat):
                    directions = [option["direction"] for option in aim_options(state, shield)] or list(DIRECTIONS)
                    actions.extend({"type": "place", "shield": shield, "direction": d} for d in directions)
        actions.append({"type": "resign"})
        return actions

    # -- actions (``apply`` has checked the shape, the end and the turn; ``state`` is a copy)

    # -- notation (game records): the words of /octagone place

    def notation(self, state: OctagoneState, seat: int, action: Mapping[str, Any]) -> str:
        """The White Lady as ``C4 NE`` (box, direction); a shield as ``green NE`` or, with its
        box given, ``green C4 NE``. Anything else keeps the generic form."""
        words = [action.get(name) for name in ("shield", "box", "direction") if name in action]
        short = " ".join(word for word in words if isinstance(word, str))
        if _short_action(short) == action:
            return short
        return super().notation(state, seat, action)

    def parse_notation(self, state: OctagoneState, seat: int, text: str) -> dict[str, Any]:
        return _short_action(text) or super().parse_notation(state, seat, text)

    def play_white_lady(self, state: OctagoneState, seat: int, action: Mapping[str, Any]) -> None:
        if not state.opening:
            raise IllegalAction("The White Lady only opens the game: place a shield on the target box.")
        box, direction = action["box"], _direction(action)
        if box not in BOXES:
            raise IllegalAction("Choose a box from A1 to F7 for the White Lady.")
        designated = designated_box({box}, box, direction, WHITE_LADY, state.level)
        if designated is None:
            raise IllegalAction(f"From {box} the arrow pointing {direction} designates no box; aim it elsewhere.")
        state.board[box] = Placement(WHITE_LADY, direction, seat, state.ply)
        state.white_lady = state.last_box = box
        state.target = designated
        state.record("white_lady", seat, box=box, direction=direction, target=designated)
        self._advance(state, seat)

    def play_place(self, state: OctagoneState, seat: int, action: Mapping[str, Any]) -> None:
        if state.opening:
            raise IllegalAction("The game opens with the White Lady: choose her box and direction.")
        target = state.target
        assert target is not None
        shield, direction = action["shield"], _direction(action)
        if action.get("box", target) != target:
            raise IllegalAction(f"The shield must go on the target box {target}.")
        if shield not in SHIELD_KINDS:
            raise IllegalAction(f"Choose a shield: one of {', '.join(COLOURS)} or joker.")
        if state.hands[seat][shield] == 0:
            raise IllegalAction(f"You have no {_shield_words(shield)} left.")
        if not fits(shield, target):
            raise IllegalAction(
                f"Box {target} is {box_colour(target)} (row {target[0]}): "
                f"play {_a(box_colour(target))} shield or a joker."
            )
        options = aim_options(state, shield)
        if options and direction not in {option["direction"] for option in options}:
            raise IllegalAction(
                f"The arrow must designate a free box, and pointing {direction} from {target} "
                f"designates none; try {', '.join(option['direction'] for option in options)}."
            )
        state.hands[seat][shield] -= 1
        state.board[target] = Placement(shield, direction, seat, state.ply)
        state.last_box = target
        leaving = state.white_lady
        if leaving is not None:  # she leaves before the new arrow looks for a free box
            del state.board[leaving]
            state.white_lady = None
        designated = designated_box(set(state.board), target, direction, shield, state.level)
        state.target = designated
        state.record("place", seat, shield=shield, box=target, direction=direction, target=designated)
        if leaving is not None:
            state.record("white_lady_removed", box=leaving)
        if shields_left(state, seat) == 0:
            self._end_by_count(state, END_ALL_PLACED)
        elif designated is None:
            self._end_by_count(state, END_NO_AIM)
        else:
            self._advance(state, seat)

    def _advance(self, state: OctagoneState, mover: int) -> None:
        """Pass the turn clockwise; players without a fitting shield skip, and if nobody has one the game ends."""
        seat = (mover + 1) % state.players
        for _ in range(state.players):
            if can_play(state, seat):
                state.to_move = seat
                return
            state.record("skip", seat, box=state.target)
            if state.white_lady is not None:  # a skip is a turn: she leaves after it too
                del state.board[state.white_lady]
                state.record("white_lady_removed", box=state.white_lady)
                state.white_lady = None
            seat = (seat + 1) % state.players
        self._end_by_count(state, END_NO_SHIELD)

    def _end_by_count(self, state: OctagoneState, reason: str) -> None:
        """The end of play: the side (a seat, or a pair) with the fewest shields left wins."""
        sides = sorted({team_of(state, seat) for seat in range(state.players)})
        side_ranks = ranks_from_scores([team_shields_left(state, side[0]) for side in sides], higher_is_better=False)
        rank_of_side = dict(zip(sides, side_ranks, strict=True))
        ranks = tuple(rank_of_side[team_of(state, seat)] for seat in range(state.players))
        self.finish(state, Outcome(ranks, self.scores(state), reason, self.teams(state)))

    def finish(self, state: OctagoneState, outcome: Outcome) -> None:
        state.to_move = None
        super().finish(state, outcome)


def _short_action(text: str) -> dict[str, Any] | None:
    """The action a short notation writes (``C4 NE``, ``green NE``, ``green C4 NE``), or None."""
    words = text.split()
    if len(words) == 2 and words[0] in BOXES and words[1] in DIRECTIONS:
        return {"type": "white_lady", "box": words[0], "direction": words[1]}
    if len(words) in (2, 3) and words[0] in SHIELD_KINDS and words[-1] in DIRECTIONS:
        if len(words) == 2:
            return {"type": "place", "shield": words[0], "direction": words[1]}
        if words[1] in BOXES:
            return {"type": "place", "shield": words[0], "box": words[1], "direction": words[2]}
    return None


def _direction(action: Mapping[str, Any]) -> str:
    direction: str = action["direction"]
    if direction not in DIRECTIONS:
        raise IllegalAction("Aim the arrow at one of N, NE, E, SE, S, SW, W, NW.")
    return direction


def _extra_joker_seats(chosen: Any) -> tuple[int, int]:
    """The seats that take their pair's extra joker: ``chosen`` names one seat of each pair.

    (reconstruction) The seed lets each pair decide; the decision of 2026-11-23 makes the
    default the member who sits first in the pair (seat 0 for {0, 2}, seat 1 for {1, 3}).
    """
    if chosen is None:
        return DEFAULT_EXTRA_JOKER_SEATS
    seats = tuple(chosen) if isinstance(chosen, (list, tuple)) else ()
    if (
        len(seats) != 2
        or not all(type(seat) is int and 0 <= seat < 4 for seat in seats)
        or sorted(seat % 2 for seat in seats) != [0, 1]
    ):
        raise ValueError("extra_joker_seats names one seat of each pair, e.g. [2, 1]")
    return seats


def _a(word: str) -> str:
    """``word`` with its indefinite article: "a green", "an orange"."""
    return f"{'an' if word[0] in 'aeiou' else 'a'} {word}"


def _shield_words(shield: str) -> str:
    if shield == JOKER:
        return "jokers"
    return f"{shield} shields (row {COLOUR_ROW[shield]})"
