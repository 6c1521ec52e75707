"""Octiles Scavenger Hunt: set-up, the three turn options, decoy markers, scramble, end.

Seed: ``shared/seeds/octiles-scavenger-hunt.txt``; decisions: ``shared/rules/octiles.md``.
Colours are "gold"/"teal" for players and "orange"/"plum" for their prizes and markers.

State phases (who acts, see :func:`acting`):
``runners`` (Gold places both runners) -> ``prizes`` (Teal picks the first circle) -> ``turn``
(the turn seat plays option 1, 2 or 3, or passes when nothing is legal) -> optionally ``marker``
(a seat places a decoy marker) -> optionally ``scramble`` (the mover scrambles or skips, only
while the scramble rule is on and unused) -> next ``turn`` ... -> ``over``.

Test/bot-test start: ``options={"layout": {...}}`` fixes any of these keys (the rest is dealt
from the seed as usual):
  ``"tiles"``: {space: [tile number, orientation]} for all 17 spaces, with ``"spare"``: tile number;
  ``"gold_seat"``: 0 or 1; ``"runners"``: {"gold": stop/circle, "teal": stop/circle};
  ``"prizes"``: {circle: "orange"|"plum"} or ``"first_circle"``: circle id;
  ``"collected"``: {"gold": n, "teal": n}; ``"marker"``: {"colour": "orange"|"plum", "stop": id};
  ``"last_option"``: {"gold": 0-3, "teal": 0-3} (3 = changed a tile last turn, so must move now).
With runners and prizes given, play starts at Gold's first turn.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from engines.base import IllegalAction, Outcome, rng_from

from .board import (
    CENTRAL_STOPS,
    CIRCLES,
    EDGE_NAMES,
    ORIENTATIONS,
    RING,
    SPACES,
    STOPS,
    TILE_NUMBERS,
    Route,
    connections,
    parse_edge_id,
    routes_from,
)

SCHEMA_VERSION = 1
PRIZES_TO_WIN = 5
PRIZE_COLOUR = {"gold": "orange", "teal": "plum"}
OWNER_OF_PRIZE = {prize: player for player, prize in PRIZE_COLOUR.items()}
OPPONENT = {"gold": "teal", "teal": "gold"}
# (reconstruction) The seed lists the ring as "Plum prize, blank circle, Orange prize, ...":
# the circle Teal chooses gets a Plum prize, then every other circle alternates.
FIRST_PRIZE_ON_CHOSEN_CIRCLE = "plum"
# (reconstruction) Two passes in a row (both players stuck) end the game as a draw.
PASSES_FOR_DRAW = 2
LOG_LENGTH = 8

TURN_ACTIONS = ("move", "replace_move", "rotate", "replace", "pass")


@dataclass
class OctilesState:
    seed: int
    scramble_rule: bool
    gold_seat: int
    tiles: dict[str, list[int]]  # space -> [tile number, orientation]
    spare: int
    phase: str = "runners"  # runners | prizes | turn | marker | scramble | over
    turn_seat: int = 0  # whose turn it is (in marker/scramble: whose turn just happened)
    runners: dict[str, str | None] = field(default_factory=lambda: {"gold": None, "teal": None})
    prizes: dict[str, str] = field(default_factory=dict)  # circle -> "orange" | "plum"
    collected: dict[str, int] = field(default_factory=lambda: {"gold": 0, "teal": 0})
    marker: dict[str, str] | None = None  # {"colour": "orange"|"plum", "stop": id}
    pending_marker: dict[str, Any] | None = None  # {"colour": ..., "placer": seat}
    last_option: list[int] = field(default_factory=lambda: [0, 0])  # per seat, 0 = none / pass
    last_change: dict[str, Any] | None = None  # {"seat","space","tile","option","kind"} of the last turn
    last_route: dict[str, Any] | None = None  # Route.as_dict() plus "seat", of the last turn
    last_scramble: list[str] | None = None  # spaces scrambled right after the last turn
    scramble_used: list[bool] = field(default_factory=lambda: [False, False])
    passes_in_row: int = 0
    turn_number: int = 0
    winner: int | None = None  # None with phase "over" = draw
    end_reason: str = ""
    log: list[str] = field(default_factory=list)
    schema: int = SCHEMA_VERSION

    def clone(self) -> OctilesState:
        return OctilesState(
            seed=self.seed,
            scramble_rule=self.scramble_rule,
            gold_seat=self.gold_seat,
            tiles={space: list(placed) for space, placed in self.tiles.items()},
            spare=self.spare,
            phase=self.phase,
            turn_seat=self.turn_seat,
            runners=dict(self.runners),
            prizes=dict(self.prizes),
            collected=dict(self.collected),
            marker=dict(self.marker) if self.marker else None,
            pending_marker=dict(self.pending_marker) if self.pending_marker else None,
            last_option=list(self.last_option),
            last_change=dict(self.last_change) if self.last_change else None,
            last_route=_copy_route(self.last_route),
            last_scramble=list(self.last_scramble) if self.last_scramble else None,
            scramble_used=list(self.scramble_used),
            passes_in_row=self.passes_in_row,
            turn_number=self.turn_number,
            winner=self.winner,
            end_reason=self.end_reason,
            log=list(self.log),
            schema=self.schema,
        )


def _copy_route(route: dict | None) -> dict | None:
    if route is None:
        return None
    return {**route, "steps": [list(step) for step in route["steps"]]}


# ---------------------------------------------------------------- public helpers


def colour_of(state: OctilesState, seat: int) -> str:
    """ "gold" or "teal"."""
    return "gold" if seat == state.gold_seat else "teal"


def seat_of(state: OctilesState, colour: str) -> int:
    return state.gold_seat if colour == "gold" else 1 - state.gold_seat


def prizes_collected(state: OctilesState) -> tuple[int, int]:
    """Prizes collected, by seat."""
    return tuple(state.collected[colour_of(state, seat)] for seat in (0, 1))


def prizes_left(state: OctilesState, colour: str) -> list[str]:
    """Circles still holding a prize of this player (in ring order)."""
    prize = PRIZE_COLOUR[colour]
    return [circle for circle in RING if state.prizes.get(circle) == prize]


def marker_owner(state: OctilesState) -> str | None:
    """The player ("gold"/"teal") whose marker is on the board, if any."""
    return OWNER_OF_PRIZE[state.marker["colour"]] if state.marker else None


def changed_space(state: OctilesState) -> str | None:
    """The space whose tile was rotated or replaced on the last turn."""
    return state.last_change["space"] if state.last_change else None


def last_route(state: OctilesState) -> dict[str, Any] | None:
    """The last move's route: {"seat", "start", "via", "end", "steps": [[space, in, out], ...]}."""
    return _copy_route(state.last_route)


def restricted_space(state: OctilesState, seat: int) -> str | None:
    """The space ``seat`` may not rotate or replace with option 3 this turn (the opponent's last change)."""
    change = state.last_change
    if not change or change["option"] != 3 or change["seat"] == seat:
        return None
    for space, placed in state.tiles.items():
        if placed[0] == change["tile"]:
            return space
    return None


def free_stops(state: OctilesState) -> list[str]:
    """Stops with no runner (where a marker may be placed)."""
    occupied = set(state.runners.values())
    return [stop for stop in STOPS if stop not in occupied]


def acting(state: OctilesState) -> tuple[int | None, str]:
    """Who must act now and why, in a sentence for players."""
    if state.phase == "over":
        return None, "the game is over"
    if state.phase == "runners":
        return state.gold_seat, "set-up: Gold places the Gold and Teal runners on two central stops"
    if state.phase == "prizes":
        return seat_of(state, "teal"), "set-up: Teal chooses the circle for the first Plum prize"
    if state.phase == "marker":
        owner = OWNER_OF_PRIZE[state.pending_marker["colour"]].title()
        return state.pending_marker["placer"], f"place {owner}'s {state.pending_marker['colour']} marker on a free stop"
    if state.phase == "scramble":
        return state.turn_seat, "scramble four tiles (once per game) or skip"
    colour = colour_of(state, state.turn_seat).title()
    return state.turn_seat, f"{colour}'s turn: move, replace and move, or change a tile"


def destination_problem(state: OctilesState, colour: str, end: str) -> str | None:
    """Why ``colour``'s runner may not end a move on ``end`` (None if it may)."""
    opponent = OPPONENT[colour]
    if end in CIRCLES:
        prize = state.prizes.get(end)
        if prize is None:
            return f"circle {end} is empty: you may only stop on a circle holding one of your prizes"
        if prize != PRIZE_COLOUR[colour]:
            return f"circle {end} holds {opponent.title()}'s {prize} prize"
        if marker_owner(state) == colour:
            return (
                f"your {PRIZE_COLOUR[colour]} marker is on {state.marker['stop']}: reach it before collecting a prize"
            )
        return None
    if state.runners[opponent] == end:
        return f"stop {end} is occupied by {opponent.title()}'s runner"
    if state.marker and state.marker["stop"] == end and marker_owner(state) == opponent:
        return f"stop {end} holds {opponent.title()}'s {state.marker['colour']} marker"
    return None


def legal_routes(
    state: OctilesState, seat: int, tiles: Mapping | None = None, crossing: str | None = None
) -> dict[str, list[Route]]:
    """Destinations of ``seat``'s runner with every route to each (option 2 on the current tiles).

    ``tiles`` replaces the board (to try a change first) and ``crossing`` keeps only routes
    through that space (option 1).
    """
    colour = colour_of(state, seat)
    location = state.runners[colour]
    if location is None:
        return {}
    found: dict[str, list[Route]] = {}
    for route in routes_from(state.tiles if tiles is None else tiles, location):
        if route.end == location or (crossing is not None and crossing not in route.spaces):
            continue
        if destination_problem(state, colour, route.end) is None:
            found.setdefault(route.end, []).append(route)
    return found


def legal_destinations(state: OctilesState, seat: int) -> dict[str, list[Route]]:
    """Option 2 destinations for ``seat`` (empty unless it is their turn)."""
    if state.phase != "turn" or state.turn_seat != seat:
        return {}
    return legal_routes(state, seat)


def replaced_tiles(state: OctilesState, space: str, orientation: int) -> dict[str, list[int]]:
    """The board after putting the spare on ``space`` in ``orientation``."""
    tiles = dict(state.tiles)
    tiles[space] = [state.spare, orientation]
    return tiles


def _move_actions(kind: str, destinations: Mapping[str, list[Route]], extra: Mapping[str, Any]) -> list[dict]:
    actions = []
    for end, routes in destinations.items():
        if len(routes) == 1:
            actions.append({"type": kind, **extra, "to": end})
        else:
            actions.extend({"type": kind, **extra, "to": end, "via": route.via} for route in routes)
    return actions


def change_options(state: OctilesState, seat: int) -> tuple[list[dict], list[dict]]:
    """Option 3 actions (rotations, replacements) legal for ``seat`` now."""
    if state.phase != "turn" or state.turn_seat != seat or state.last_option[seat] == 3:
        return [], []
    barred = restricted_space(state, seat)
    rotations, replacements = [], []
    for space in SPACES:
        if space == barred:
            continue
        tile, current = state.tiles[space]
        look = connections(tile, current)
        rotations.extend(
            {"type": "rotate", "space": space, "orientation": orientation}
            for orientation in ORIENTATIONS
            if connections(tile, orientation) != look
        )
        replacements.extend(
            {"type": "replace", "space": space, "orientation": orientation} for orientation in ORIENTATIONS
        )
    return rotations, replacements


def replace_move_actions(state: OctilesState, seat: int) -> list[dict]:
    """Option 1 actions legal for ``seat`` now."""
    if state.phase != "turn" or state.turn_seat != seat:
        return []
    actions = []
    for space in SPACES:
        for orientation in ORIENTATIONS:
            destinations = legal_routes(state, seat, replaced_tiles(state, space, orientation), crossing=space)
            actions.extend(_move_actions("replace_move", destinations, {"space": space, "orientation": orientation}))
    return actions


def turn_actions(state: OctilesState, seat: int) -> list[dict]:
    """Every option-1/2/3 action for ``seat`` (no pass)."""
    rotations, replacements = change_options(state, seat)
    return (
        _move_actions("move", legal_destinations(state, seat), {})
        + replace_move_actions(state, seat)
        + rotations
        + replacements
    )


def has_turn_option(state: OctilesState, seat: int) -> bool:
    """True if ``seat`` has any option 1, 2 or 3 (otherwise they must pass). Stops at the first found."""
    if state.phase != "turn" or state.turn_seat != seat:
        return False
    if legal_destinations(state, seat) or any(change_options(state, seat)):
        return True
    return any(
        legal_routes(state, seat, replaced_tiles(state, space, orientation), crossing=space)
        for space in SPACES
        for orientation in ORIENTATIONS
    )


# ---------------------------------------------------------------- the engine


class OctilesEngine:
    name = "octiles"
    title = "Octiles Scavenger Hunt"
    min_players = 2
    max_players = 2
    schema_version = SCHEMA_VERSION

    # -- creation
    def new_game(self, players: int, options: Mapping[str, Any], seed: int) -> OctilesState:
        if players != 2:
            raise ValueError("Octiles Scavenger Hunt is for exactly two players")
        options = dict(options or {})
        layout = dict(options.get("layout") or {})
        rng = rng_from(seed, "setup")
        order = list(TILE_NUMBERS)
        rng.shuffle(order)
        tiles = {space: [tile, rng.randrange(8)] for space, tile in zip(SPACES, order, strict=False)}
        spare = order[-1]
        gold_seat = rng.randrange(2)
        if "tiles" in layout:
            tiles = {space: [int(layout["tiles"][space][0]), int(layout["tiles"][space][1]) % 8] for space in SPACES}
            spare = int(layout["spare"])
            if sorted([placed[0] for placed in tiles.values()] + [spare]) != list(TILE_NUMBERS):
                raise ValueError("layout tiles and spare must be the 18 tiles, each once")
        gold_seat = int(layout.get("gold_seat", gold_seat))
        state = OctilesState(
            seed=seed,
            scramble_rule=bool(options.get("scramble", False)),
            gold_seat=gold_seat,
            tiles=tiles,
            spare=spare,
            turn_seat=gold_seat,
        )
        state.log.append(f"Colours drawn: seat {gold_seat + 1} is Gold and plays first.")
        if "runners" in layout:
            state.runners = {"gold": layout["runners"]["gold"], "teal": layout["runners"]["teal"]}
            state.phase = "prizes"
        if "prizes" in layout:
            state.prizes = {circle: colour for circle, colour in layout["prizes"].items()}
        elif "first_circle" in layout:
            state.prizes = _prizes_from(layout["first_circle"])
        if state.phase == "prizes" and ("prizes" in layout or "first_circle" in layout):
            state.phase = "turn"
        state.collected.update({k: int(v) for k, v in layout.get("collected", {}).items()})
        for colour, option in layout.get("last_option", {}).items():
            state.last_option[seat_of(state, colour)] = int(option)
        if layout.get("marker"):
            state.marker = {"colour": layout["marker"]["colour"], "stop": layout["marker"]["stop"]}
        return state

    # -- queries
    def to_act(self, state: OctilesState) -> list[int]:
        seat, _ = acting(state)
        return [] if seat is None else [seat]

    def outcome(self, state: OctilesState) -> Outcome | None:
        if state.phase != "over":
            return None
        scores = tuple(float(n) for n in prizes_collected(state))
        if state.winner is None:
            return Outcome((1, 1), scores, state.end_reason)
        ranks = tuple(1 if seat == state.winner else 2 for seat in (0, 1))
        return Outcome(ranks, scores, state.end_reason)

    def legal_actions(self, state: OctilesState, seat: int) -> list[dict[str, Any]]:
        """Everything ``apply`` accepts from ``seat`` now, except resign (always accepted)."""
        if self.to_act(state) != [seat]:
            return []
        if state.phase == "runners":
            return [
                {"type": "place_runners", "gold": gold, "teal": teal}
                for gold, teal in itertools.permutations(CENTRAL_STOPS, 2)
            ]
        if state.phase == "prizes":
            return [{"type": "first_circle", "circle": circle} for circle in RING]
        if state.phase == "marker":
            return [{"type": "place_marker", "stop": stop} for stop in free_stops(state)]
        if state.phase == "scramble":
            return [{"type": "skip_scramble"}] + [
                {"type": "scramble", "tiles": list(four)} for four in itertools.combinations(SPACES, 4)
            ]
        actions = turn_actions(state, seat)
        return actions or [{"type": "pass"}]

    # -- serialisation
    def dump(self, state: OctilesState) -> dict[str, Any]:
        return asdict(state)

    def load(self, data: Mapping[str, Any]) -> OctilesState:
        data = dict(data)
        if data.get("schema") != SCHEMA_VERSION:
            raise ValueError(f"unknown octiles schema {data.get('schema')!r}")
        return OctilesState(**data).clone()

    # -- actions
    def apply(self, state: OctilesState, seat: int, action: Mapping[str, Any]) -> OctilesState:
        kind = action.get("type") if isinstance(action, Mapping) else None
        if state.phase == "over":
            raise IllegalAction("the game is over")
        if seat not in (0, 1):
            raise IllegalAction("you are not playing in this game")
        if kind == "resign":
            new = state.clone()
            new.phase, new.winner = "over", 1 - seat
            new.end_reason = f"{colour_of(state, seat).title()} resigned"
            _log(new, new.end_reason + ".")
            return new
        expected, why = acting(state)
        if seat != expected:
            raise IllegalAction(f"it is not your turn: {why}")
        handler = {
            "runners": {"place_runners": self._place_runners},
            "prizes": {"first_circle": self._first_circle},
            "marker": {"place_marker": self._place_marker},
            "scramble": {"scramble": self._scramble, "skip_scramble": self._skip_scramble},
            "turn": {
                "move": self._move,
                "replace_move": self._replace_move,
                "rotate": self._rotate,
                "replace": self._replace,
                "pass": self._pass,
            },
        }[state.phase].get(kind)
        if handler is None:
            raise IllegalAction(f"that is not possible now: {why}")
        return handler(state, seat, action)

    # set-up
    def _place_runners(self, state, seat, action):
        gold, teal = str(action.get("gold", "")).upper(), str(action.get("teal", "")).upper()
        for stop in (gold, teal):
            if stop not in CENTRAL_STOPS:
                raise IllegalAction(f"runners start on a central stop ({', '.join(CENTRAL_STOPS)}), not {stop or '?'}")
        if gold == teal:
            raise IllegalAction("the two runners need different central stops")
        new = state.clone()
        new.runners = {"gold": gold, "teal": teal}
        new.phase = "prizes"
        _log(new, f"Gold placed the Gold runner on {gold} and the Teal runner on {teal}.")
        return new

    def _first_circle(self, state, seat, action):
        circle = str(action.get("circle", "")).upper()
        if circle not in CIRCLES:
            raise IllegalAction(f"{circle or '?'} is not a circle (circles: {', '.join(RING)})")
        new = state.clone()
        new.prizes = _prizes_from(circle)
        new.phase, new.turn_seat = "turn", new.gold_seat
        _log(new, f"Teal set out the prizes from circle {circle}. Gold moves first.")
        return new

    # turn options
    def _move(self, state, seat, action):
        destinations = self._destinations_or_reason(state, seat, state.tiles, None, action)
        route = _pick_route(destinations, action)
        new = state.clone()
        new.last_change = None
        return self._finish_move(new, seat, route, option=2)

    def _replace_move(self, state, seat, action):
        space, orientation = _space_and_orientation(action)
        tiles = replaced_tiles(state, space, orientation)
        destinations = self._destinations_or_reason(state, seat, tiles, space, action)
        route = _pick_route(destinations, action)
        new = state.clone()
        removed = new.tiles[space][0]
        new.tiles[space] = [new.spare, orientation]
        new.spare = removed
        new.last_change = {"seat": seat, "space": space, "tile": new.tiles[space][0], "option": 1, "kind": "replace"}
        _log(
            new,
            f"{colour_of(state, seat).title()} replaced tile {removed} on {space} with tile "
            f"{new.tiles[space][0]} (orientation {orientation}).",
        )
        return self._finish_move(new, seat, route, option=1)

    def _rotate(self, state, seat, action):
        space, orientation = _space_and_orientation(action)
        self._check_change(state, seat, space)
        tile, current = state.tiles[space]
        if connections(tile, orientation) == connections(tile, current):
            raise IllegalAction(f"turning tile {tile} on {space} to orientation {orientation} changes nothing")
        new = state.clone()
        new.tiles[space] = [tile, orientation]
        new.last_change = {"seat": seat, "space": space, "tile": tile, "option": 3, "kind": "rotate"}
        _log(new, f"{colour_of(state, seat).title()} rotated tile {tile} on {space} to orientation {orientation}.")
        return self._finish_change(new, seat)

    def _replace(self, state, seat, action):
        space, orientation = _space_and_orientation(action)
        self._check_change(state, seat, space)
        new = state.clone()
        removed = new.tiles[space][0]
        new.tiles[space] = [new.spare, orientation]
        new.spare = removed
        new.last_change = {"seat": seat, "space": space, "tile": new.tiles[space][0], "option": 3, "kind": "replace"}
        _log(
            new,
            f"{colour_of(state, seat).title()} replaced tile {removed} on {space} with tile "
            f"{new.tiles[space][0]} (orientation {orientation}) without moving.",
        )
        return self._finish_change(new, seat)

    def _pass(self, state, seat, action):
        if has_turn_option(state, seat):
            raise IllegalAction("you can still move or change a tile, so you may not pass")
        new = state.clone()
        new.last_option[seat] = 0
        new.last_change = new.last_route = new.last_scramble = None
        new.passes_in_row += 1
        new.turn_number += 1
        _log(new, f"{colour_of(state, seat).title()} had no legal option and passed.")
        if new.passes_in_row >= PASSES_FOR_DRAW:
            new.phase, new.winner = "over", None
            new.end_reason = "both players passed in a row: draw"
            _log(new, "Both players passed in a row: the game is a draw.")
            return new
        new.turn_seat = 1 - seat
        return new

    # markers and scramble
    def _place_marker(self, state, seat, action):
        stop = str(action.get("stop", "")).upper()
        if stop not in STOPS:
            raise IllegalAction(f"{stop or '?'} is not a stop")
        if stop not in free_stops(state):
            raise IllegalAction(f"stop {stop} has a runner on it: choose a free stop")
        new = state.clone()
        colour = new.pending_marker["colour"]
        new.marker = {"colour": colour, "stop": stop}
        new.pending_marker = None
        _log(
            new,
            f"{colour_of(state, seat).title()} placed the {colour} marker on {stop}: "
            f"{OWNER_OF_PRIZE[colour].title()} must reach it before collecting again.",
        )
        return self._after_marker(new)

    def _scramble(self, state, seat, action):
        chosen = action.get("tiles")
        if not isinstance(chosen, list | tuple) or len(chosen) != 4:
            raise IllegalAction("a scramble takes exactly four tile spaces")
        spaces = [str(space).lower() for space in chosen]
        unknown = [space for space in spaces if space not in SPACES]
        if unknown:
            raise IllegalAction(f"{unknown[0]} is not a tile space")
        if len(set(spaces)) != 4:
            raise IllegalAction("choose four different tile spaces to scramble")
        new = state.clone()
        rng = rng_from(state.seed, "scramble", state.turn_number, seat)
        shuffled = [new.tiles[space][0] for space in spaces]
        rng.shuffle(shuffled)
        for space, tile in zip(spaces, shuffled, strict=True):
            new.tiles[space] = [tile, rng.randrange(8)]
        new.scramble_used[seat] = True
        new.last_scramble = spaces
        _log(new, f"{colour_of(state, seat).title()} scrambled the tiles on {', '.join(spaces)}.")
        return self._next_turn(new)

    def _skip_scramble(self, state, seat, action):
        return self._next_turn(state.clone())

    # helpers
    def _destinations_or_reason(self, state, seat, tiles, crossing, action) -> list[Route]:
        target = str(action.get("to", "")).upper()
        if target not in CIRCLES and target not in STOPS:
            raise IllegalAction(f"{target or '?'} is not a stop or circle")
        colour = colour_of(state, seat)
        start = state.runners[colour]
        if target == start:
            raise IllegalAction(f"your runner is already on {target}: a move must end somewhere else")
        routes = [route for route in routes_from(tiles, start) if route.end == target]
        if not routes:
            raise IllegalAction(f"no path leads from {start} to {target}")
        if crossing is not None:
            routes = [route for route in routes if crossing in route.spaces]
            if not routes:
                raise IllegalAction(f"the move to {target} must cross the new tile on {crossing}")
        problem = destination_problem(state, colour, target)
        if problem:
            raise IllegalAction(problem)
        return routes

    def _check_change(self, state, seat, space):
        if state.last_option[seat] == 3:
            raise IllegalAction("you changed a tile without moving last turn: this turn you must move your runner")
        if space == restricted_space(state, seat):
            raise IllegalAction(
                f"your opponent just changed the tile on {space}: you may not rotate or replace it "
                "without moving this turn (option 1 on it is allowed)"
            )

    def _finish_move(self, new: OctilesState, seat: int, route: Route, option: int) -> OctilesState:
        colour = colour_of(new, seat)
        new.runners[colour] = route.end
        new.last_route = {"seat": seat, **route.as_dict()}
        new.last_option[seat] = option
        new.passes_in_row = 0
        new.last_scramble = None
        new.turn_number += 1
        _log(
            new,
            f"{colour.title()} moved {route.start} \u2192 {route.end} (via {route.via}, "
            f"through {', '.join(route.spaces)}).",
        )
        end = route.end
        if end in CIRCLES:
            del new.prizes[end]
            first_prize = sum(new.collected.values()) == 0
            new.collected[colour] += 1
            _log(
                new,
                f"{colour.title()} collected the {PRIZE_COLOUR[colour]} prize on {end} "
                f"({new.collected[colour]}/{PRIZES_TO_WIN}).",
            )
            if new.collected[colour] >= PRIZES_TO_WIN:
                new.phase, new.winner = "over", seat
                new.end_reason = f"{colour.title()} collected all {PRIZES_TO_WIN} prizes"
                return new
            if first_prize:
                new.pending_marker = {"colour": PRIZE_COLOUR[colour], "placer": 1 - seat}
        elif new.marker and new.marker["stop"] == end and marker_owner(new) == colour:
            new.marker = None
            new.pending_marker = {"colour": PRIZE_COLOUR[OPPONENT[colour]], "placer": seat}
            _log(new, f"{colour.title()} reached the {PRIZE_COLOUR[colour]} marker and removed it.")
        if new.pending_marker:
            new.phase = "marker"
            return new
        return self._after_marker(new)

    def _finish_change(self, new: OctilesState, seat: int) -> OctilesState:
        new.last_route = None
        new.last_scramble = None
        new.last_option[seat] = 3
        new.passes_in_row = 0
        new.turn_number += 1
        return self._after_marker(new)

    def _after_marker(self, new: OctilesState) -> OctilesState:
        if new.scramble_rule and not new.scramble_used[new.turn_seat]:
            new.phase = "scramble"
            return new
        return self._next_turn(new)

    def _next_turn(self, new: OctilesState) -> OctilesState:
        new.phase = "turn"
        new.turn_seat = 1 - new.turn_seat
        return new


def _prizes_from(first_circle: str) -> dict[str, str]:
    start = RING.index(first_circle.upper())
    other = "orange" if FIRST_PRIZE_ON_CHOSEN_CIRCLE == "plum" else "plum"
    return {
        RING[(start + 2 * k) % len(RING)]: (FIRST_PRIZE_ON_CHOSEN_CIRCLE if k % 2 == 0 else other)
        for k in range(len(RING) // 2)
    }


def _space_and_orientation(action: Mapping[str, Any]) -> tuple[str, int]:
    space = str(action.get("space", "")).lower()
    if space not in SPACES:
        raise IllegalAction(f"{space or '?'} is not a tile space (spaces: {', '.join(SPACES)})")
    orientation = action.get("orientation")
    if isinstance(orientation, bool) or not isinstance(orientation, int) or not 0 <= orientation <= 7:
        raise IllegalAction("orientation must be a whole number from 0 to 7 (steps of 45 degrees clockwise)")
    return space, orientation


def _pick_route(routes: list[Route], action: Mapping[str, Any]) -> Route:
    via = action.get("via")
    if via is None:
        if len(routes) > 1:
            options = " or ".join(route.via for route in routes)
            raise IllegalAction(f"two routes lead to {routes[0].end}: say which edge to leave by ({options})")
        return routes[0]
    parsed = parse_edge_id(via)
    wanted = f"{parsed[0]}.{EDGE_NAMES[parsed[1]]}" if parsed else None
    for route in routes:
        if route.via == wanted:
            return route
    raise IllegalAction(f"no route to {routes[0].end} leaves by {via}")


def _log(state: OctilesState, line: str) -> None:
    state.log.append(line)
    del state.log[:-LOG_LENGTH]


ENGINE = OctilesEngine()
