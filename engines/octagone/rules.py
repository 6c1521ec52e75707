"""Octagone rules: the deal, the White Lady's opening, aimed shields, skips, the end and scoring.

Seats play in clockwise order 0, 1, 2, 3 (four players: A1, B1, A2, B2), so the pairs are
seats {0, 2} and {1, 3}. Actions:

* ``{"type": "white_lady", "box": "C4", "direction": "NE"}``: the starter's opening move.
* ``{"type": "place", "shield": "green", "direction": "SW"}``: a coloured shield (its colour
  name) or ``"joker"`` on the target box; ``"box"`` may be given but must be the target box.
* ``{"type": "resign"}``: any seat, while the game runs.

Skipped turns happen inside ``apply`` (a player with neither a matching shield nor a joker
cannot act); they are recorded as ``{"type": "skip"}`` events, see :func:`last_events`.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from engines.base import IllegalAction, Outcome, ranks_from_scores, rng_from
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

SCHEMA_VERSION = 1
BASIC = "basic"
ADVANCED = "advanced"
LEVELS = (BASIC, ADVANCED)
SHIELD_KINDS: tuple[str, ...] = (*COLOURS, JOKER)

# Deal sizes from the seed: (jokers, coloured shields) per player.
DEAL = {2: (3, 18), 4: (1, 9)}

END_ALL_PLACED = "empty_hand"
END_NO_AIM = "no_aim"
END_NO_SHIELD = "no_shield"
END_RESIGN = "resign"


@dataclass(frozen=True)
class Placement:
    shield: str  # a colour name, "joker" or "white_lady"
    direction: str
    seat: int
    action: int  # number of the action that placed it (1 = the White Lady)


@dataclass
class OctagoneState:
    schema_version: int
    seed: int
    players: int
    level: str
    open_hands: bool
    starter: int
    hands: list[dict[str, int]]  # per seat: shield kind -> count, every kind listed
    board: dict[str, Placement] = field(default_factory=dict)
    white_lady: str | None = None  # her box while she stands on the board
    last_box: str | None = None  # box of the last placed shield (the White Lady counts)
    target: str | None = None  # the box the player to move must fill
    to_move: int | None = None
    actions: int = 0  # actions applied so far
    events: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None  # {"ranks", "scores", "reason", "condition"}

    @property
    def over(self) -> bool:
        return self.result is not None

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


def target_box(state: OctagoneState) -> str | None:
    return state.target


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


def last_events(state: OctagoneState) -> list[dict[str, Any]]:
    """What the most recent action caused: the move itself, skips, the White Lady leaving, the end."""
    return [event for event in state.events if event["action"] == state.actions]


# --- the engine -------------------------------------------------------------------------------


class OctagoneEngine:
    name = "octagone"
    title = "Octagone"
    min_players = 2
    max_players = 4
    schema_version = SCHEMA_VERSION

    # -- creation

    def new_game(self, players: int, options: Mapping[str, Any], seed: int) -> OctagoneState:
        if players not in DEAL:
            raise ValueError("Octagone is played by 2 or 4 players")
        level = options.get("level", ADVANCED)
        if level not in LEVELS:
            raise ValueError(f"level must be one of {', '.join(LEVELS)}")
        if players == 4 and level != ADVANCED:
            raise ValueError("four players play the advanced level only")
        starter = rng_from(seed, "starter").randrange(players)
        hands = self._deal(players, starter, seed, options.get("extra_joker_seats"))
        return OctagoneState(
            SCHEMA_VERSION,
            seed,
            players,
            level,
            bool(options.get("open_hands", False)),
            starter,
            hands,
            to_move=starter,
        )

    @staticmethod
    def _deal(players: int, starter: int, seed: int, extra_joker_seats: Any) -> list[dict[str, int]]:
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
            for seat in _extra_joker_seats(starter, extra_joker_seats):
                hands[seat][JOKER] += 1
        assert sum(sum(hand.values()) for hand in hands) == len(COLOURS) * SHIELDS_PER_COLOUR + JOKERS
        return hands

    # -- queries

    def to_act(self, state: OctagoneState) -> list[int]:
        return [] if state.over or state.to_move is None else [state.to_move]

    def outcome(self, state: OctagoneState) -> Outcome | None:
        if state.result is None:
            return None
        teams = tuple(min(team_of(state, seat)) for seat in range(state.players))
        return Outcome(tuple(state.result["ranks"]), tuple(state.result["scores"]), state.result["reason"], teams)

    def legal_actions(self, state: OctagoneState, seat: int) -> list[dict[str, Any]]:
        if state.over or not 0 <= seat < state.players:
            return []
        actions: list[dict[str, Any]] = []
        if seat == state.to_move:
            if state.opening:
                for box in BOXES:
                    for option in aim_options(state, WHITE_LADY, box):
                        actions.append({"type": "white_lady", "box": box, "direction": option["direction"]})
            else:
                for shield in placeable_shields(state, seat):
                    directions = [option["direction"] for option in aim_options(state, shield)] or list(DIRECTIONS)
                    actions.extend({"type": "place", "shield": shield, "direction": d} for d in directions)
        actions.append({"type": "resign"})
        return actions

    # -- actions

    def apply(self, state: OctagoneState, seat: int, action: Mapping[str, Any]) -> OctagoneState:
        if state.over:
            raise IllegalAction("the game is over")
        if not isinstance(seat, int) or not 0 <= seat < state.players:
            raise IllegalAction("you are not playing in this game")
        kind = action.get("type") if isinstance(action, Mapping) else None
        if kind == "resign":
            new = _copy(state)
            new.actions += 1
            new.events.append({"type": "resign", "seat": seat, "action": new.actions})
            self._finish(new, END_RESIGN, "a player resigned", loser=seat)
            return new
        if kind not in ("white_lady", "place"):
            raise IllegalAction("that is not an Octagone move: place the White Lady, place a shield or resign")
        if seat != state.to_move:
            raise IllegalAction("it is not your turn")
        direction = action.get("direction")
        if direction not in DIRECTIONS:
            raise IllegalAction("aim the arrow at one of N, NE, E, SE, S, SW, W, NW")
        if kind == "white_lady":
            return self._white_lady(state, seat, action.get("box"), direction)
        return self._place(state, seat, action, direction)

    def _white_lady(self, state: OctagoneState, seat: int, box: Any, direction: str) -> OctagoneState:
        if not state.opening:
            raise IllegalAction("the White Lady only opens the game")
        if box not in BOXES:
            raise IllegalAction("choose a box from A1 to F7 for the White Lady")
        designated = designated_box({box}, box, direction, WHITE_LADY, state.level)
        if designated is None:
            raise IllegalAction(f"from {box} the arrow pointing {direction} designates no box; aim it elsewhere")
        new = _copy(state)
        new.actions += 1
        new.board[box] = Placement(WHITE_LADY, direction, seat, new.actions)
        new.white_lady = new.last_box = box
        new.target = designated
        new.events.append(
            {
                "type": "white_lady",
                "seat": seat,
                "box": box,
                "direction": direction,
                "target": designated,
                "action": new.actions,
            }
        )
        self._advance(new, seat)
        return new

    def _place(self, state: OctagoneState, seat: int, action: Mapping[str, Any], direction: str) -> OctagoneState:
        if state.opening:
            raise IllegalAction("the game opens with the White Lady: choose her box and direction")
        target = state.target
        assert target is not None
        shield = action.get("shield")
        if "box" in action and action["box"] != target:
            raise IllegalAction(f"the shield must go on the target box {target}")
        if shield not in SHIELD_KINDS:
            raise IllegalAction(f"choose a shield: one of {', '.join(COLOURS)} or joker")
        if state.hands[seat][shield] == 0:
            raise IllegalAction(f"you have no {_shield_words(shield)} left")
        if not fits(shield, target):
            raise IllegalAction(
                f"box {target} is {box_colour(target)} (row {target[0]}): "
                f"play {_a(box_colour(target))} shield or a joker"
            )
        options = aim_options(state, shield)
        if options and direction not in {option["direction"] for option in options}:
            raise IllegalAction(
                f"the arrow must designate a free box, and pointing {direction} from {target} "
                f"designates none; try {', '.join(option['direction'] for option in options)}"
            )
        new = _copy(state)
        new.actions += 1
        new.hands[seat][shield] -= 1
        new.board[target] = Placement(shield, direction, seat, new.actions)
        new.last_box = target
        self._remove_white_lady(new)
        designated = designated_box(set(new.board), target, direction, shield, new.level)
        new.target = designated
        new.events.append(
            {
                "type": "place",
                "seat": seat,
                "shield": shield,
                "box": target,
                "direction": direction,
                "target": designated,
                "action": new.actions,
            }
        )
        if shields_left(new, seat) == 0:
            self._finish(new, END_ALL_PLACED, "a player placed their last shield")
        elif designated is None:
            self._finish(new, END_NO_AIM, f"the shield on {target} cannot be aimed at any free box")
        else:
            self._advance(new, seat)
        return new

    @staticmethod
    def _remove_white_lady(state: OctagoneState) -> None:
        """She leaves once the player after the starter has had their turn (a placement or a skip)."""
        if state.white_lady is not None:
            del state.board[state.white_lady]
            state.events.append({"type": "white_lady_removed", "box": state.white_lady, "action": state.actions})
            state.white_lady = None

    def _advance(self, state: OctagoneState, mover: int) -> None:
        """Pass the turn clockwise; players without a fitting shield skip, and if nobody has one the game ends."""
        seat = (mover + 1) % state.players
        for _ in range(state.players):
            if can_play(state, seat):
                state.to_move = seat
                return
            state.events.append({"type": "skip", "seat": seat, "box": state.target, "action": state.actions})
            self._remove_white_lady(state)
            seat = (seat + 1) % state.players
        self._finish(
            state,
            END_NO_SHIELD,
            f"no player holds {_a(box_colour(state.target))} shield or a joker for box {state.target}",
        )

    @staticmethod
    def _finish(state: OctagoneState, condition: str, reason: str, loser: int | None = None) -> None:
        scores = [team_shields_left(state, seat) for seat in range(state.players)]
        if loser is not None:
            losing = team_of(state, loser)
            ranks = [2 if seat in losing else 1 for seat in range(state.players)]
        else:
            # Rank the sides (pairs score together), not the seats: a pair shares one place.
            sides = sorted({team_of(state, seat) for seat in range(state.players)})
            side_ranks = ranks_from_scores(
                [team_shields_left(state, side[0]) for side in sides], higher_is_better=False
            )
            rank_of_side = dict(zip(sides, side_ranks, strict=True))
            ranks = [rank_of_side[team_of(state, seat)] for seat in range(state.players)]
        state.to_move = None
        state.result = {"ranks": ranks, "scores": scores, "reason": reason, "condition": condition}
        state.events.append({"type": "end", "condition": condition, "reason": reason, "action": state.actions})

    # -- serialisation

    def dump(self, state: OctagoneState) -> dict[str, Any]:
        return asdict(state)

    def load(self, data: Mapping[str, Any]) -> OctagoneState:
        if data.get("schema_version") != SCHEMA_VERSION:
            raise ValueError(f"unsupported Octagone state version {data.get('schema_version')}")
        fields = copy.deepcopy(dict(data))
        fields["board"] = {box: Placement(**placed) for box, placed in fields["board"].items()}
        return OctagoneState(**fields)


def _copy(state: OctagoneState) -> OctagoneState:
    """A copy safe to change: placements and recorded events are never mutated, so they are shared."""
    return replace(
        state,
        hands=[dict(hand) for hand in state.hands],
        board=dict(state.board),
        events=list(state.events),
        result=copy.deepcopy(state.result),
    )


def _extra_joker_seats(starter: int, chosen: Any) -> tuple[int, int]:
    """One extra joker per pair. (reconstruction) By default it goes to the pair member who plays second."""
    if chosen is not None:
        seats = tuple(chosen)
        if len(seats) != 2 or sorted(seat % 2 for seat in seats) != [0, 1] or not all(0 <= s < 4 for s in seats):
            raise ValueError("extra_joker_seats names one seat of each pair, e.g. [2, 1]")
        return seats  # type: ignore[return-value]
    order = [(starter + step) % 4 for step in range(4)]
    return order[2], order[3]


def _a(word: str) -> str:
    """``word`` with its indefinite article: "a green", "an orange"."""
    return f"{'an' if word[0] in 'aeiou' else 'a'} {word}"


def _shield_words(shield: str) -> str:
    if shield == JOKER:
        return "jokers"
    return f"{shield} shields (row {COLOUR_ROW[shield]})"
