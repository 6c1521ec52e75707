"""A tiny two-player game for the platform's tests: players add 1 or 2 to a counter in turn,
and whoever reaches 8 wins. It exercises every shared mechanism without any real game's rules."""

from __future__ import annotations

import multiprocessing
import os
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import ClassVar

import discord
from discord import app_commands

from bot.core.workers import drawing
from bot.ui.adapter import ChallengeOption, GameAdapter
from bot.ui.controls import SessionButton
from bot.ui.menus import ActionMenu, Step
from bot.ui.replies import UserError, acknowledge
from engines.base import Game, GameState, IllegalAction, Outcome
from render.theme import canvas, centred_text, to_picture

TARGET = 8
WIDE = (200, 40)  # the "wide" option: reach 200 adding up to 40, so a menu needs pages


@dataclass(kw_only=True)
class TinyState(GameState):
    total: int = 0
    turn: int = 0
    target: int = TARGET
    most: int = 2  # the most one may add at a time


class TinyEngine(Game[TinyState]):
    name, title, min_players, max_players, state_class = "tiny", "Tiny", 2, 2, TinyState
    actions: ClassVar = {"add": {"amount": int}}

    def new_game(self, players, options, seed):
        target, most = WIDE if options.get("wide") else (TARGET, 2)
        first = 1 if options.get("first") == "them" else 0
        return TinyState(seed=seed, players=players, turn=first, target=target, most=most)

    def play_add(self, state, seat, action):
        if not 1 <= action["amount"] <= state.most:
            raise IllegalAction("add 1 or 2" if state.most == 2 else f"add 1 to {state.most}")
        if state.total + action["amount"] > state.target:
            raise IllegalAction(f"that would pass {state.target}")
        state.total += action["amount"]
        state.turn = 1 - seat
        state.record("add", seat, amount=action["amount"])
        if state.total == state.target:
            self.finish(
                state, Outcome((1, 2) if seat == 0 else (2, 1), (float(seat == 0), float(seat == 1)), "reached 8")
            )

    def legal_actions(self, state, seat):
        if state.over or seat != state.turn:
            return []
        return [{"type": "add", "amount": a} for a in range(1, state.most + 1) if state.total + a <= state.target]

    def to_act(self, state):
        return [] if state.over else [state.turn]


def narrate_tiny(event, names):
    if event.kind == "add":
        return f"{names[event.seat]} added {event.data['amount']}."
    if event.kind == "resign":
        return f"{names[event.seat]} resigned."
    return ""


def tiny_computer(state, seat, level, seed):
    """Always adds as much as it may."""
    return TinyEngine().legal_actions(state, seat)[-1]


ADD_MENU = ActionMenu(
    "tiny",
    [Step(lambda action: str(action["amount"]), "**Your turn**: how much do you add?", lambda at, v: f"+{v}")],
    button="Add…",
)


def render_tiny(state: TinyState, *, ending: str | None = None):
    """The counter; a game that ended says how (``ending``) instead of looking live."""
    image, draw = canvas(200, 100)
    centred_text(draw, (100, 50), str(state.total), 40)
    if ending:
        centred_text(draw, (100, 88), ending, 12)
        return to_picture(image, f"The counter is at {state.total}. Game over: {ending}.")
    return to_picture(image, f"The counter is at {state.total}.")


class TinyAdapter(GameAdapter):
    engine = TinyEngine()
    name, title = "tiny", "Tiny"
    summary = "Add 1 or 2; reach 8 to win."
    rules = "Players add 1 or 2 in turn. Whoever reaches 8 wins."
    computer_player = tiny_computer
    private_view_label = "My view"

    def __init__(self, ctx):
        super().__init__(ctx)
        ctx.controls.button("tiny_add", self.add_button)

    @app_commands.command(name="add", description="Add 1 or 2.")
    async def add(self, interaction: discord.Interaction, amount: int) -> None:
        await acknowledge(interaction)
        session_id = await self.ctx.running_id(interaction, "tiny")
        await self.ctx.act(session_id, interaction.user.id, {"type": "add", "amount": amount})
        await self.ctx.reply_private(interaction, f"You added {amount}.")

    async def add_button(self, interaction, session_id, arg):
        await self.ctx.act(session_id, interaction.user.id, {"type": "add", "amount": int(arg)})

    def components(self, session):
        if session.state.most > 2:
            return [self.ctx.menus.button(session, ADD_MENU)]
        return [SessionButton(session.id, "tiny_add", str(a), label=f"+{a}") for a in (1, 2)]

    def challenge_options(self, chosen, seats):
        return {"wide": True} if chosen.get("wide") else {}

    def public_picture(self, session):
        return drawing(render_tiny, session.state)

    def private_picture(self, session, seat):
        return drawing(render_tiny, session.state)

    narrate = staticmethod(narrate_tiny)
    menus = (ADD_MENU,)
    challenge_extras = (ChallengeOption("wide", "Reach 200, adding up to 40 at a time"),)


__all__ = ["TinyAdapter", "UserError"]


def computer_reporting_its_process(state, seat, level, seed):
    """Adds 2 when it thinks in a worker process, 1 when it thinks in the bot's own process."""
    return {"type": "add", "amount": 2 if multiprocessing.parent_process() is not None else 1}


def died_flag(bot_pid: int, seed: int) -> Path:
    return Path(tempfile.gettempdir()) / f"tiny-worker-died-{bot_pid}-{seed}"


def computer_dying_once(state, seat, level, seed):
    """Kills its worker process the first time in a game (as the OOM killer would), then adds 2."""
    flag = died_flag(multiprocessing.parent_process().pid, state.seed)
    if not flag.exists():
        flag.write_text("died")
        os._exit(1)
    return {"type": "add", "amount": 2}


def render_reporting_its_process(state):
    """The counter, with alt text saying whether it was drawn in a worker process."""
    picture = render_tiny(state)
    where = "a worker" if multiprocessing.parent_process() is not None else "the bot's own process"
    return replace(picture, description=f"Drawn in {where}.")


def render_dying_once(state):
    """Kills its worker process the first time in a game, then draws the counter."""
    flag = died_flag(multiprocessing.parent_process().pid, state.seed)
    if not flag.exists():
        flag.write_text("died")
        os._exit(1)
    return render_tiny(state)


async def start_game(world):
    """Ada challenges Bo to Tiny in #games and Bo accepts; the game message."""
    await world.ada.slash(world.channel, "tiny challenge", opponent=world.bo)
    await world.bo.click(world.channel.last_message, label="Accept")
    return world.channel.last_message
