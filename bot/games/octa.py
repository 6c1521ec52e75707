"""Octa on Discord: `/octa challenge`, the public table picture and the private turn menu.

The game message carries a "Turn panel" button: it opens, for the player on turn, a private
menu declared as steps (bot/ui/menus.py) over the engine's legal actions, with their hand drawn
as cards: first what to do (a pile, an action card, option A/B/C, an exchange, a discard, an
addition to a run...), then its details (a run, a hand card, a pool position, the cards of a
run). Each choice plays one engine action; the next step of the turn is a new menu.
No rules live here: the engine decides, the menu offers only what is legal now.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.core.workers import drawing
from bot.ui.adapter import GameAdapter, GameSession
from bot.ui.menus import ActionMenu, Narrowing, Step
from engines.octa import (
    ENGINE,
    FACE_DOWN,
    HAND_SIZE,
    POOL_LINES,
    WIN_TABLE_CARDS,
    choose_action,
    table_count,
)
from render.octa import card_text, render_hand, step_text
from render.wording import plural

LINE_NAMES = {"top": "top row", "bottom": "bottom row", "left": "left column", "right": "right column"}
ACTION_CARDS = {"J": "Jack", "Q": "Queen", "K": "King"}

# ---------------------------------------------------------------- the steps' keys
# Step 1 is what to do (``kind``); then, by kind, a group (a run, a hand card), a detail (a
# card of the run, a pool position, the cards to add) and several cards at once (a Queen's
# two pool positions, a new run's cards).


def kind(action: Mapping[str, Any]) -> str:
    what = action["type"]
    if what == "flip":
        return f"pile{action['pile']}"
    if what == "use_action":
        return action["action"] + (f".{action['source']}" if action["action"] == "king" else "")
    if what == "take_line":
        return f"line.{action['line']}"
    if what == "lay_run":
        return "layt" if action.get("token") else "lay"
    return what


def group(action: Mapping[str, Any]) -> str | None:
    what = action["type"]
    if what in ("fill_hidden", "use_action") and "owner" in action:  # a run of either player
        return f"{action['owner']}.{action['run']}"
    if what == "add_to_run":
        return str(action["run"])
    return action.get("hand_card") or action.get("card") if what in ("exchange", "discard") else None


def detail(action: Mapping[str, Any]) -> str | None:
    what = action["type"]
    if what == "use_action" and "slot" in action:
        return str(action["slot"])
    if what == "exchange":
        return f"{action['pool_position']}.{action['line']}" if action["token"] else str(action["pool_position"])
    if what == "add_to_run":
        return "-".join(action["cards"])
    return action["card"] if what == "fill_hidden" else None


def several(action: Mapping[str, Any]) -> tuple | None:
    if action["type"] == "lay_run":
        return tuple(action["cards"])
    return tuple(action["positions"]) if action.get("action") == "queen" else None


# ---------------------------------------------------------------- the steps' words
KIND_LABELS = {
    "jack": "Jack: turn a card of a run face down",
    "queen": "Queen: take 2 pool cards of one suit",
    "skip_action": "Skip the action",
    "lay": "A: lay a run",
    "layt": "A: lay a run and put your token on it",
    "claim_pool_run": "C: claim your pool run",
    "exchange": "Exchange a hand card with a pool card",
    "discard": "Discard a card",
    "end_turn": "End the turn",
    "add_to_run": "Any time: add cards to your runs",
    "fill_hidden": "Any time: replace a face-down card",
}
PASS_LABELS = {
    "option": "No option: go to the exchange",
    "b_play": "Finish option B",
    "exchange": "No exchange: go to the discard",
}
QUESTIONS = {  # (step index, kind) -> the question of that step
    (1, "jack"): "Jack: choose the run",
    (2, "jack"): "Jack: choose the card to turn face down (you take it)",
    (3, "queen"): "Queen: choose 2 pool cards of one suit",
    (3, "lay"): "A: lay a run (pick its 3+ cards)",
    (3, "layt"): "A: lay a run and put your token on it (pick its 3+ cards)",
    (1, "exchange"): "Exchange: choose the hand card to put in the pool",
    (2, "exchange"): "Exchange **{card}**: choose the pool position.",
    (1, "discard"): "Discard a card",
    (1, "add_to_run"): "Add cards to which of your runs?",
    (2, "add_to_run"): "Add which cards?",
    (1, "fill_hidden"): "Replace the face-down card of which run?",
    (2, "fill_hidden"): "Put which card face up?",
}


def _cards(cards: Sequence[str]) -> str:
    return " ".join(card_text(c) for c in cards)


def _run_label(at: Narrowing, owner: int, index: int) -> str:
    slots = " ".join("?" if s.startswith(FACE_DOWN) else card_text(s) for s in at.state.runs[owner][index]["slots"])
    whose = "Your" if owner == at.seat else "Opponent's"
    return f"{whose} run {index + 1}: {slots}"


def situation(at: Narrowing) -> str:
    """The turn and step, what the step is about, and the hand below."""
    state = at.state
    lines = [f"**Octa: your turn** (turn {state.turn + 1}). **Step**: {step_text(state)}."]
    if state.step == "place_action" and state.revealed:
        lines.append(f"The revealed action card is **{card_text(state.revealed)}**: put it on pile 1 or 2.")
    elif state.step == "action":
        card = state.action_piles[state.new_pile][-1]
        lines.append(f"The suits match: you may use the **{ACTION_CARDS.get(card[:-1], card)}** ({card_text(card)}).")
    elif state.step == "b_play":
        lines.append(f"You took **{_cards(state.b_taken) or 'none'}**: play at least one of them onto the table.")
    lines.append(f"Your hand ({plural(len(state.hands[at.seat]), 'card')}, limit {HAND_SIZE}) is below.")
    return "\n".join(lines)


def ask(index: int):
    def prompt(at: Narrowing) -> str:
        question = QUESTIONS.get((index, at.choice(0)), "Choose")
        if "{card}" in question:
            question = question.format(card=card_text(at.choice(1)))
        return f"{situation(at)}\n{question}"

    return prompt


def kind_label(at: Narrowing, value: str) -> str:
    what, _, which = value.partition(".")
    if what.startswith("pile"):
        pile = at.state.action_piles[int(what[4:])]
        return f"Pile {int(what[4:]) + 1}" + (f" (on {card_text(pile[-1])})" if pile else "")
    if what == "line":
        return f"B: take {LINE_NAMES[which]} ({_cards(at.state.pool[p - 1] for p in POOL_LINES[which])})"
    if what == "king":
        return f"King: 2 cards from the {which}"
    return PASS_LABELS.get(at.state.step, "Pass") if value == "pass_step" else KIND_LABELS[value]


def group_label(at: Narrowing, value: str) -> str:
    what = at.choice(0)
    if what in ("exchange", "discard"):
        return f"{'Put in' if what == 'exchange' else 'Discard'} {card_text(value)}"
    return _run_label(at, at.seat, int(value)) if what == "add_to_run" else _run_label(at, *map(int, value.split(".")))


def detail_label(at: Narrowing, value: str) -> str:
    what, state = at.choice(0), at.state
    if what == "jack":
        owner, run = map(int, at.choice(1).split("."))
        return f"Turn {card_text(state.runs[owner][run]['slots'][int(value)])} face down"
    if what == "exchange":
        position, _, line = value.partition(".")
        token = f", token on the {LINE_NAMES[line]} run" if line else ""
        return f"Pool {position}: take {card_text(state.pool[int(position) - 1])}{token}"
    return f"Add {_cards(value.split('-'))}" if what == "add_to_run" else f"Replace it with {card_text(value)}"


def several_label(at: Narrowing, value: str) -> str:
    return f"Pool {value}: {card_text(at.state.pool[int(value) - 1])}" if at.choice(0) == "queen" else card_text(value)


# ---------------------------------------------------------------- where the options sit on the board
# The table (render_table) with the player's hand under it (render_hand): see render/board.py.


def kind_place(at: Narrowing, value: str) -> str | None:
    return f"pile:{value[4:]}" if value.startswith("pile") else None  # the rest are buttons


def group_place(at: Narrowing, value: str) -> str | None:
    what = at.choice(0)
    if what in ("exchange", "discard"):
        return f"hand:{value}"
    return f"run:{at.seat}.{value}" if what == "add_to_run" else f"run:{value}"


def detail_place(at: Narrowing, value: str) -> str | None:
    what = at.choice(0)
    if what == "jack":
        return f"slot:{at.choice(1)}.{value}"
    if what == "exchange":  # a pool position with a choice of token lines: buttons
        return None if "." in value else f"pool:{value}"
    return f"hand:{value}" if what == "fill_hidden" else None  # the cards to add: a button each


def several_place(at: Narrowing, value: str) -> str:
    return f"pool:{value}" if at.choice(0) == "queen" else f"hand:{value}"


def hand(at: Narrowing):
    return drawing(render_hand, at.state, at.session.names, at.seat)


# ---------------------------------------------------------------- steps with nothing to decide
PASS = "pass_step"  # no option, no exchange, finish option B: the turn goes on
ANY_TIME = "add_to_run"  # open at every step of the turn, and it never opens a step's choice


def formality(state: Any, seat: int) -> dict[str, Any] | None:
    """The action a player need not choose: the only legal one, or passing a step (no option,
    no exchange) that offers nothing else when the only other plays are additions to runs,
    which stay open for the rest of the turn. Otherwise the step waits: a face-down card put
    back can bring a new run or exchange into the hand, a longer run a target for the Jack."""
    legal = [a for a in ENGINE.legal_actions(state, seat) if a["type"] != "resign"]
    if len(legal) == 1:
        return legal[0]
    steps = [a for a in legal if a["type"] != ANY_TIME]
    return steps[0] if len(steps) == 1 and steps[0]["type"] == PASS else None


TURN_MENU = ActionMenu(
    name="octa",
    steps=[
        Step(kind, situation, kind_label, picture=hand, placeholder="What do you do?", where=kind_place),
        Step(group, ask(1), group_label, picture=hand, where=group_place),
        Step(detail, ask(2), detail_label, picture=hand, where=detail_place),
        Step(
            several, ask(3), several_label, picture=hand, many=True, placeholder="Pick the cards", where=several_place
        ),
    ],
    button="Turn panel",
    formality=formality,
)


class OctaAdapter(GameAdapter):
    engine = ENGINE
    name = "octa"
    title = "Octa"
    summary = "Lay runs of cards; an Octa of 8 and 28 cards on the table wins."
    computer_player = choose_action
    private_view_label = "My hand"
    menus = (TURN_MENU,)

    def private_picture(self, session: GameSession, seat: int):
        return drawing(render_hand, session.state, session.names, seat)

    def status_text(self, session: GameSession) -> str:
        state = session.state
        tables = " · ".join(
            f"{name}: {table_count(state, seat)}/{WIN_TABLE_CARDS} on the table, {len(state.hands[seat])} in hand"
            for seat, name in enumerate(session.shown_names)
        )
        playing = session.status == "active" and not state.over  # a stopped game has no step to take
        return f"Step: {step_text(state)}.\n{tables}" if playing else tables

    def components(self, session: GameSession) -> list[discord.ui.Item]:
        return [self.ctx.menus.button(session, TURN_MENU)]


__all__ = ["TURN_MENU", "OctaAdapter"]
