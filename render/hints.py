"""A hint in words and on the board: the reason the computer's suggested action is good, taken
from the events the engine emits for it (a capture, a prize collected, a skip forced), the places
it touches (ringed on the game's own picture, as a lesson rings them), and how many hints each
player used, for the game message, its card and its record.

Only the hinting seat's own events and the game's end are read: what the action makes happen
to others next (an opponent's draw) is never told."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engines.base import Event
from engines.octego import KIND_NAMES
from render.lessons import lesson_picture
from render.octa import card_text
from render.octagone import shield_words
from render.theme import Picture
from render.wording import noun, plural

BEST = "the computer's best choice in this position"  # an action whose events say nothing more


def hint_picture(game: str, state: Any, names: Sequence[str], marks: Sequence[str]) -> Picture:
    """The position before the suggested action, the places it touches ringed (a card game has
    none: its picture is the table as it is)."""
    return lesson_picture(game, state, names, marks)


def marks(game: str, action: Mapping[str, Any], events: Sequence[Event]) -> list[str]:
    """The places on the board the suggested action touches: an Octego path's first and last
    squares, the Octagone box a shield goes to, the Octiles tile space and the stop reached."""
    found: list[str] = []
    for event in events:
        data = event.data
        if game == "octego" and event.kind == "move":
            found += [data["path"][0], data["path"][-1]]
        elif game == "octagone" and event.kind in ("place", "white_lady"):
            found.append(data["box"])
        elif game == "octiles":
            found += [data[key] for key in ("space", "end", "stop", "circle") if isinstance(data.get(key), str)]
    if game == "octiles":
        found += [action[key] for key in ("gold", "teal") if isinstance(action.get(key), str)]
    return list(dict.fromkeys(found))


def reason(game: str, seat: int, events: Sequence[Event], won: bool, names: Sequence[str]) -> str:
    """One line on why: what the action does, from its own events ("takes Bo's Octego", "collects
    a plum prize"); the computer's preference when its events say nothing more."""
    if won:
        return "wins the game"
    tell = REASONS.get(game)
    said = [tell(event, seat, names) for event in events if event.seat == seat] if tell else []
    best = [line for line in said if line]
    return best[0] if best else BEST


def _octego(event: Event, seat: int, names: Sequence[str]) -> str:
    if event.kind != "move":
        return ""
    data = event.data
    if data["capture"]:
        return f"takes {_other(names, seat)}'s {KIND_NAMES[data['capture']]}"
    return "changes grids" if data["grid_change"] else ""


def _octagone(event: Event, seat: int, names: Sequence[str]) -> str:
    if event.kind == "white_lady":
        return f"opens on {event.data['box']}, aiming at {event.data['target']}"
    if event.kind == "place":
        target = event.data["target"]
        aim = f"sends the next shield to {target}" if target else "fills the last free box"
        return f"places {shield_words(event.data['shield'])} on {event.data['box']} and {aim}"
    return ""


def _octiles(event: Event, seat: int, names: Sequence[str]) -> str:
    data = event.data
    if event.kind == "collect":
        return f"collects the {data['prize']} prize on {data['circle']}"
    if event.kind == "marker_reached":
        return f"reaches the marker on {data['stop']}"
    if event.kind in ("move", "replace_move"):
        return f"brings your runner to {data['end']}"
    if event.kind in ("rotate", "replace"):
        return f"changes the tile on {data['space']}"
    if event.kind == "marker":
        return f"puts the marker on {data['stop']}"
    return ""


def _octa(event: Event, seat: int, names: Sequence[str]) -> str:
    data = event.data
    cards: list[str] = data["cards"] if isinstance(data.get("cards"), list) else []
    told: dict[str, Callable[[], str]] = {
        "octa": lambda: "completes an Octa",
        "lay_run": lambda: f"lays a run of {plural(len(cards), 'card')} on the table",
        "add_to_run": lambda: f"adds {plural(len(cards), 'card')} to your run {data['run'] + 1}",
        "claim_pool_run": lambda: "claims the pool's run",
        "take_line": lambda: f"takes the {data['line']} line of the pool",
        "use_action": lambda: f"uses the {str(data['action']).title()}",
        "fill_hidden": lambda: "takes a face-down card",
        "exchange": lambda: f"exchanges {card_text(data['card'])} with the pool",
        "discard": lambda: f"discards {card_text(data['card'])}",
        "flip": lambda: "puts a card on an action pile",
        "skip_action": lambda: "keeps the action unused",
        "end_turn": lambda: "ends your turn here",
    }
    return told[event.kind]() if event.kind in told else ""


def _other(names: Sequence[str], seat: int) -> str:
    return names[1 - seat] if len(names) == 2 else "the other side"


# A game's events as reasons: which one of its events makes a suggested action worth playing.
REASONS: dict[str, Callable[[Event, int, Sequence[str]], str]] = {
    "octego": _octego,
    "octagone": _octagone,
    "octiles": _octiles,
    "octa": _octa,
}


def used_note(used: Sequence[int] | None, names: Sequence[str]) -> str:
    """Who used hints, for the game message, its card and its record ("💡 Hints used: Ada 2";
    nothing when none was used)."""
    counts = [(names[seat], count) for seat, count in enumerate(used or []) if count and seat < len(names)]
    if not counts:
        return ""
    total = sum(count for _, count in counts)
    who = ", ".join(f"{name} {count}" for name, count in counts)
    return f"💡 {noun(total, 'Hint')} used: {who}"
