"""The Activity's board for one viewer: what they see of a session and the action their clicks make.

``view`` is the picture the viewer may see (render.board.board_picture: a spectator the public
picture, a seated player also what their private answers show in Discord: Octa's hand, Octagone's
shields, Octagion's deck), the game message's text, and, for the player who acts now, the step of
the game's declared menu their choices so far narrow to, each option with the region of the
picture it sits in (or none: a button beside the board), and the game's own buttons beside a move
(the adapter's ``board_buttons``: Octagion's lobby and Got it!). ``action`` is the engine action the
menus would build from the same choices, or the reason there is none. Neither writes anything:
the server plays an action through ``sessions.change`` (bot/features/activity/server.py).

The steps, their options and where each sits are the menus' own declarations (bot/ui/menu_steps.py),
so a game's Discord menus and its board never disagree.
"""

from __future__ import annotations

import base64
import collections
import copy
import datetime
import json
import re
from collections.abc import Mapping
from typing import Any

from bot.core.sessions import GameSession
from bot.core.workers import drawing
from bot.ui.menu_steps import ActionMenu, Narrowing, Step, menu_actions, narrow
from bot.ui.replies import UserError
from render.board import board_picture
from render.octagion import result_text, variant_sentence
from render.regions import size_of
from render.theme import Picture

NOT_SEATED = "You are not playing in this game: you can watch it here."
NOT_RUNNING = "This game is not running: nothing can be played on its board."
TYPED = "This game is played by typing an answer, not on the board."
INCOMPLETE = "Choose the rest of your move first."
ONLY_ONE = "You have one possible move: play it."
RECENT_PICTURES = 128  # (session, position, seat) pictures kept: every open board of a game shares them


def turn_menu(adapter: Any) -> ActionMenu | None:
    """The menu a move on the board is made with: the one of a turn of several actions (Octa's), else
    the game's first; None for a game played by typing (Octagion)."""
    menus: list[ActionMenu] = list(adapter.menus)
    return next((menu for menu in menus if menu.formality is not None), menus[0] if menus else None)


def action(
    games: Mapping[str, Any], session: GameSession, viewer_id: int | None, picks: list[str]
) -> dict[str, Any] | str:
    """The action ``picks`` make for the viewer, as the menus would build it, or why there is none."""
    adapter = games[session.record.game]
    seat = session.seat_of(viewer_id) if viewer_id is not None else None
    menu = turn_menu(adapter)
    if seat is None:
        return NOT_SEATED
    if session.status != "active" or session.state is None or session.state.over:
        return NOT_RUNNING
    if menu is None:
        return TYPED
    if seat not in adapter.engine.to_act(session.state):
        return str(adapter.engine.not_your_turn(session.state, seat))
    try:
        at, index = narrow(menu, session, seat, picks, menu_actions(menu, adapter.engine, session, seat))
    except UserError as refused:
        return str(refused)
    if index is not None:
        return INCOMPLETE
    return copy.deepcopy(at.actions[0])


async def view(
    games: Mapping[str, Any], session: GameSession, viewer_id: int | None, picks: list[str]
) -> dict[str, Any]:
    """What the viewer's board shows now (JSON-able); see the module's docstring."""
    adapter = games[session.record.game]
    seat = session.seat_of(viewer_id) if viewer_id is not None else None
    shown: dict[str, Any] = {
        "session": session.id,
        "version": session.action_number,
        "game": session.record.game,
        "title": adapter.title,
        "seat": seat,
        "players": list(session.names),
        "picture": None,
        "description": "",
        "width": 0,
        "height": 0,
        "status": plain(_content(adapter, session), session),
        "done": session.status not in ("active", "challenge", "lobby"),
        "step": None,
        "picks": [],
        "ready": False,
        "race": None,
        "result": None,
        "notice": None,
        "buttons": [{"key": key, "label": label} for key, label in adapter.board_buttons(session, seat)],
    }
    if session.state is None:  # a challenge or a lobby: no board yet
        return shown
    picture = await _picture(adapter, session, seat)
    shown["picture"] = base64.b64encode(picture.png).decode("ascii")
    shown["description"] = picture.description
    shown["width"], shown["height"] = size_of(picture)
    shown["race"] = _race(adapter, session, seat)
    shown["result"] = _result(adapter, session)
    menu = turn_menu(adapter)
    if menu is None or seat is None or not _acts_now(adapter, session, seat):
        return shown
    actions = menu_actions(menu, adapter.engine, session, seat)
    try:
        at, index = narrow(menu, session, seat, picks, actions)
    except UserError as refused:
        shown["notice"] = str(refused)
        picks = []
        at, index = narrow(menu, session, seat, picks, actions)
    shown["picks"] = list(picks)
    if index is None:
        shown["ready"] = True  # the choices name one action: the page plays it (or asks, with none made)
        shown["step"] = {"prompt": ONLY_ONE, "options": [], "many": False} if not picks else None
        return shown
    shown["step"] = _step(menu.steps[index], at, picture)
    return shown


def _step(step: Step, at: Narrowing, picture: Picture) -> dict[str, Any]:
    options = []
    for value in step.values(at.actions):
        label = step.label(at, value) if step.label else value
        region = step.region(at, value)
        options.append({"key": value, "label": label, "region": list(picture.regions[region]) if region else None})
    prompt = step.prompt(at) if callable(step.prompt) else step.prompt
    return {"prompt": plain(prompt, at.session), "options": options, "many": step.many}


def _acts_now(adapter: Any, session: GameSession, seat: int) -> bool:
    state = session.state
    return (
        session.status == "active"
        and not state.over
        and adapter.playing_now(session)
        and seat in adapter.engine.to_act(state)
    )


def _race(adapter: Any, session: GameSession, seat: int | None) -> dict[str, Any] | None:
    """A game played by typing (Octagion's round, the one such game): its clock and what the viewer's
    team has set so far."""
    if turn_menu(adapter) is not None or session.status != "active" or not adapter.playing_now(session):
        return None
    state = session.state
    answer = plain(variant_sentence(state, seat), session) if seat is not None else None
    return {"round": state.round, "deadline": session.meta.round_deadline, "answer": answer}


def _result(adapter: Any, session: GameSession) -> str | None:
    """A game played by typing (Octagion): once a round is over, its result as the result message in
    Discord gives it (the game message's "the result is below" points there; on the board it is below)."""
    state = session.state
    if turn_menu(adapter) is not None or adapter.playing_now(session) or not state.history:
        return None
    return plain(result_text(state, state.history[-1], session.shown_names), session)


def _content(adapter: Any, session: GameSession) -> str:
    table = adapter.ctx.table
    if session.state is None:
        waiting = (
            table.challenge_content(session) if session.status == "challenge" else adapter.lobby_message(session)[0]
        )
        return str(waiting)
    return str(table.content(session))


# ------------------------------------------------------------------ the picture
_recent: collections.OrderedDict[tuple[Any, ...], Picture] = collections.OrderedDict()


async def _picture(adapter: Any, session: GameSession, seat: int | None) -> Picture:
    """The viewer's picture, drawn in a worker; once per position and seat, shared by every board."""
    ending = adapter.ctx.table.public_drawing(session).keywords
    ending_text = dict(ending).get("ending") if ending else None
    position = hash(json.dumps(session.record.state, sort_keys=True))  # as the menus' step pictures
    key = (session.id, session.record.game, position, session.action_number, session.status, seat, ending_text)
    found = _recent.get(key)
    if found is not None:
        _recent.move_to_end(key)
        return found
    names = list(session.names)
    found = await adapter.ctx.pictures.draw(
        drawing(board_picture, session.record.game, session.state, names, seat, ending_text)
    )
    assert isinstance(found, Picture)
    _recent[key] = found
    while len(_recent) > RECENT_PICTURES:
        _recent.popitem(last=False)
    return found


# ------------------------------------------------------------------ words
def plain(text: str, session: GameSession) -> str:
    """Discord's message text for a page: mentions as names, times as clock times, no markdown."""
    names = {str(player): name for player, name in zip(session.players, session.names, strict=False)}
    text = re.sub(r"<@!?(\d+)>", lambda m: names.get(m.group(1), "someone"), text)
    text = re.sub(r"<t:(\d+)(?::\w)?>", lambda m: _clock(int(m.group(1))), text)
    text = re.sub(r"^#+ ", "", text, flags=re.MULTILINE)
    text = text.replace("**", "").replace("`", "")
    return re.sub(r"\\([\\*_~`|>#-])", r"\1", text)


def _clock(unix: int) -> str:
    return datetime.datetime.fromtimestamp(unix, datetime.UTC).strftime("%H:%M UTC")
