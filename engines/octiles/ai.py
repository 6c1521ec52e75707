"""Computer opponent for Octiles Scavenger Hunt.

It looks one move ahead: every legal action is played on a copy and the position is scored by
prizes collected, markers, and how many moves each runner needs to reach its next target
(its marker if on the board, else its nearest prize) on the resulting tiles. "hard" also
checks the opponent's best immediate answer for the most promising actions.

Levels: "easy" (collects when it can, otherwise a random legal action), "medium", "hard".
With the scramble rule, the chosen turn action carries the scramble when the opponent is about to
collect near the end of the game (the threshold depends on the level; "easy" never scrambles).
"""

from __future__ import annotations

import random
from collections import deque
from functools import lru_cache
from typing import Any, cast

from .board import CIRCLES, RING, SPACES, move_graph, routes_from
from .rules import (
    PRIZE_COLOUR,
    PRIZES_TO_WIN,
    SCRAMBLING_ACTIONS,
    OctilesEngine,
    OctilesState,
    colour_of,
    free_stops,
    legal_destinations,
    legal_routes,
    marker_owner,
    prizes_left,
    replaced_tiles,
    scramble_available,
    seat_of,
)

_ENGINE = OctilesEngine()  # the rules the computer plays by (engines are stateless: any instance will do)
UNREACHABLE = 6  # distances are capped here: further than this is "no way there"
LEVELS = ("easy", "medium", "hard")
HARD_CANDIDATES = 10
# The scramble is kept until the opponent has collected this many prizes ("easy": never used).
SCRAMBLE_FROM = {"easy": PRIZES_TO_WIN + 1, "medium": PRIZES_TO_WIN - 1, "hard": PRIZES_TO_WIN - 2}


@lru_cache(maxsize=4096)
def _graph(tiles_key: tuple[tuple[int, ...], ...]) -> dict[str, tuple[str, ...]]:
    return move_graph({space: placed for space, placed in zip(SPACES, tiles_key, strict=True)})


def graph_of(state: OctilesState) -> dict[str, tuple[str, ...]]:
    return _graph(tuple(tuple(state.tiles[space]) for space in SPACES))


def targets_of(state: OctilesState, colour: str) -> set[str]:
    """Where ``colour`` wants to go next: its marker if placed, else its prize circles."""
    if marker_owner(state) == colour:
        return {cast(dict[str, str], state.marker)["stop"]}
    return set(prizes_left(state, colour))


def blocked_for(state: OctilesState, colour: str) -> set[str | None]:
    opponent = "teal" if colour == "gold" else "gold"
    blocked = {state.runners[opponent]}
    if state.marker and marker_owner(state) == opponent:
        blocked.add(state.marker["stop"])
    return blocked


def distances(
    graph: dict[str, tuple[str, ...]], start: str, blocked: set[str | None], limit: int = UNREACHABLE
) -> dict[str, int]:
    """Moves needed from ``start`` to every stop (circles end a move, so they are leaves)."""
    seen = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if seen[here] >= limit or (here in CIRCLES and here != start):
            continue
        for there in graph[here]:
            if there not in seen and there not in blocked:
                seen[there] = seen[here] + 1
                queue.append(there)
    return seen


def distance_to_target(state: OctilesState, colour: str, graph: dict[str, tuple[str, ...]] | None = None) -> int:
    targets = targets_of(state, colour)
    start = state.runners[colour]
    if not targets or start is None:
        return UNREACHABLE
    reach = distances(graph or graph_of(state), start, blocked_for(state, colour))
    return min((reach[target] for target in targets if target in reach), default=UNREACHABLE)


def evaluate(state: OctilesState, colour: str) -> float:
    """How good ``state`` is for ``colour`` (higher is better)."""
    opponent = "teal" if colour == "gold" else "gold"
    outcome = _ENGINE.outcome(state)
    if outcome is not None:
        if outcome.is_draw:
            return 0.0
        return 100000.0 if seat_of(state, colour) in outcome.winners else -100000.0
    graph = graph_of(state)
    state = _assume_marker(state, graph)
    mine, theirs = distance_to_target(state, colour, graph), distance_to_target(state, opponent, graph)
    score = 100.0 * (state.collected[colour] - state.collected[opponent])
    score += -12.0 * mine + 10.0 * theirs
    owner = marker_owner(state)
    score += 25.0 if owner == opponent else -25.0 if owner == colour else 0.0
    if theirs == 1 and owner != opponent:
        score -= 40.0 + 40.0 * (state.collected[opponent] == PRIZES_TO_WIN - 1)
    return score


def _assume_marker(state: OctilesState, graph: dict[str, tuple[str, ...]]) -> OctilesState:
    """If a marker is waiting to be placed, assume the placer puts it as far as possible."""
    if state.phase != "marker":
        return state
    pending = cast(dict[str, Any], state.pending_marker)  # the marker phase always has one
    owner = "gold" if pending["colour"] == PRIZE_COLOUR["gold"] else "teal"
    stop = best_marker_stop(state, owner, graph)
    return _ENGINE.apply(state, pending["placer"], {"type": "place_marker", "stop": stop})


def best_marker_stop(state: OctilesState, owner: str, graph: dict[str, tuple[str, ...]] | None = None) -> str:
    """The free stop furthest (in moves) from ``owner``'s runner."""
    graph = graph or graph_of(state)
    reach = distances(graph, cast(str, state.runners[owner]), blocked_for(state, owner))  # runners placed
    return max(free_stops(state), key=lambda stop: (reach.get(stop, UNREACHABLE + 1), stop))


def choose_action(state: OctilesState, seat: int, level: str = "medium", seed: int = 0) -> dict[str, Any]:
    """A legal action for ``seat`` (who must be the seat to act)."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
    rng = random.Random(f"{seed}:{state.ply}:{seat}:{state.phase}")
    colour = colour_of(state, seat)
    if state.phase == "runners":
        return _choose_runners(state, level, rng)
    if state.phase == "prizes":
        return _choose_first_circle(state, level, rng)
    if state.phase == "marker":
        owner = "gold" if cast(dict[str, Any], state.pending_marker)["colour"] == PRIZE_COLOUR["gold"] else "teal"
        stop = rng.choice(free_stops(state)) if level == "easy" else best_marker_stop(state, owner)
        return {"type": "place_marker", "stop": stop}
    if state.phase == "scramble":  # a game stored at the old scramble offer
        spaces = _scramble_choice(state, colour, level)
        return {"type": "scramble", "tiles": spaces} if spaces else {"type": "skip_scramble"}
    return _with_scramble(state, seat, level, _choose_turn(state, seat, level, rng))


def _choose_turn(state: OctilesState, seat: int, level: str, rng: random.Random) -> dict[str, Any]:
    """The turn action (without its scramble)."""
    colour = colour_of(state, seat)
    actions = _ENGINE.legal_actions(state, seat)
    if actions == [{"type": "pass"}]:
        return actions[0]
    if level == "easy":
        collecting = [a for a in actions if a.get("to") in CIRCLES]
        return rng.choice(collecting or actions)
    scored = []
    for action in actions:
        after = _ENGINE.apply(state, seat, action)
        scored.append((evaluate(after, colour) + rng.random() * 0.5, action, after))
    scored.sort(key=lambda item: -item[0])
    if level == "hard":
        scored = [(_after_reply(after, colour), action, after) for _, action, after in scored[:HARD_CANDIDATES]]
        scored.sort(key=lambda item: -item[0])
    return scored[0][1]


def reaches_target_in_one_turn(state: OctilesState, colour: str) -> bool:
    """Could ``colour`` reach its next target with one option-2 or option-1 move on these tiles?"""
    targets = targets_of(state, colour)
    seat = seat_of(state, colour)
    if any(end in targets for end in legal_routes(state, seat)):
        return True
    return any(
        end in targets
        for space in SPACES
        for orientation in range(8)
        for end in legal_routes(state, seat, replaced_tiles(state, space, orientation), crossing=space)
    )


def _after_reply(state: OctilesState, colour: str) -> float:
    """Deeper score for ``colour``: the opponent's best plain move, and who can strike next turn."""
    if _ENGINE.outcome(state) is not None:
        return evaluate(state, colour)
    state = _assume_marker(state, graph_of(state))
    if state.phase != "turn":
        return evaluate(state, colour)
    opponent = "teal" if colour == "gold" else "gold"
    threat = 60.0 * reaches_target_in_one_turn(state, opponent)
    chance = 25.0 * reaches_target_in_one_turn(state, colour)
    opponent_seat = _ENGINE.to_act(state)[0]
    replies = [
        {"type": "move", "to": end, "via": routes[0].via}
        for end, routes in legal_destinations(state, opponent_seat).items()
    ]
    worst = min(
        (evaluate(_ENGINE.apply(state, opponent_seat, reply), colour) for reply in replies),
        default=evaluate(state, colour),
    )
    return worst + chance - threat


def _choose_runners(state: OctilesState, level: str, rng: random.Random) -> dict[str, Any]:
    options = _ENGINE.legal_actions(state, state.gold_seat)
    if level == "easy":
        return rng.choice(options)
    graph = graph_of(state)

    def mobility(stop: str) -> int:
        return len(distances(graph, stop, set(), limit=2))

    return max(options, key=lambda a: (mobility(a["gold"]) - mobility(a["teal"]), a["gold"], a["teal"]))


def _choose_first_circle(state: OctilesState, level: str, rng: random.Random) -> dict[str, Any]:
    if level == "easy":
        return {"type": "first_circle", "circle": rng.choice(RING)}
    teal_seat = seat_of(state, "teal")

    def score(circle: str) -> tuple[float, str]:
        trial = _ENGINE.apply(state, teal_seat, {"type": "first_circle", "circle": circle})
        return (_near_prizes(trial, "gold") - _near_prizes(trial, "teal"), circle)

    return {"type": "first_circle", "circle": max(RING, key=score)}


def _near_prizes(state: OctilesState, colour: str) -> float:
    reach = distances(graph_of(state), cast(str, state.runners[colour]), blocked_for(state, colour))
    found = sorted(reach.get(circle, UNREACHABLE) for circle in prizes_left(state, colour))
    return sum(found[:3])


def _with_scramble(state: OctilesState, seat: int, level: str, action: dict[str, Any]) -> dict[str, Any]:
    """``action`` ending with the scramble if it is worth using now (judged on the board after the
    move, with any marker the move sets off placed as far as it can be)."""
    colour = colour_of(state, seat)
    opponent = "teal" if colour == "gold" else "gold"
    if (
        action["type"] not in SCRAMBLING_ACTIONS
        or not scramble_available(state, seat)
        or state.collected[opponent] < SCRAMBLE_FROM[level]  # (cheap: a move never changes it)
    ):
        return action
    after = _ENGINE.apply(state, seat, action)
    if _ENGINE.outcome(after) is not None:
        return action
    spaces = _scramble_choice(_assume_marker(after, graph_of(after)), colour, level)
    return {**action, "scramble": spaces} if spaces else action


def _scramble_choice(state: OctilesState, colour: str, level: str) -> list[str] | None:
    """Four spaces to scramble, only to break an opponent who is about to collect near the end of
    the game (None: keep the scramble)."""
    opponent = "teal" if colour == "gold" else "gold"
    if state.collected[opponent] < SCRAMBLE_FROM[level] or distance_to_target(state, opponent) > 1:
        return None
    spaces: list[str] = []
    for route in routes_from(state.tiles, cast(str, state.runners[opponent])):
        if route.end in targets_of(state, opponent):
            spaces.extend(space for space in route.spaces if space not in spaces)
    for space in SPACES:  # pad with the central tiles if the route was short
        if len(spaces) >= 4:
            break
        if space not in spaces and space[0] in "bcd":
            spaces.append(space)
    return spaces[:4]


__all__ = ["LEVELS", "choose_action", "evaluate"]
