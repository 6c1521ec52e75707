"""A tiny two-player game for the platform's tests: players add 1 or 2 to a counter in turn,
and whoever reaches 8 wins. It exercises every shared mechanism without any real game's rules."""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace

import discord

from bot.adapter import GameAdapter, GameSession
from bot.components import SessionButton
from bot.replies import UserError, acknowledge
from engines.base import IllegalAction, Outcome
from render.theme import canvas, centred_text, to_picture

TARGET = 8


@dataclass(frozen=True)
class TinyState:
    total: int = 0
    turn: int = 0
    winner: int | None = None
    reason: str = ""
    schema: int = 1


class TinyEngine:
    name, title, min_players, max_players, schema_version = "tiny", "Tiny", 2, 2, 1

    def new_game(self, players, options, seed):
        return TinyState(turn=1 if options.get("first") == "them" else 0)

    def apply(self, state, seat, action):
        if state.winner is not None:
            raise IllegalAction("the game is over")
        if action.get("type") == "resign":
            return replace(state, winner=1 - seat, reason="resignation")
        if action.get("type") != "add" or action.get("amount") not in (1, 2):
            raise IllegalAction("add 1 or 2")
        if seat != state.turn:
            raise IllegalAction("it is not your turn")
        total = state.total + action["amount"]
        if total > TARGET:
            raise IllegalAction(f"that would pass {TARGET}")
        won = total == TARGET
        return replace(
            state, total=total, turn=1 - seat, winner=seat if won else None, reason="reached 8" if won else ""
        )

    def legal_actions(self, state, seat):
        if state.winner is not None or seat != state.turn:
            return []
        return [{"type": "add", "amount": a} for a in (1, 2) if state.total + a <= TARGET]

    def to_act(self, state):
        return [] if state.winner is not None else [state.turn]

    def outcome(self, state):
        if state.winner is None:
            return None
        ranks = tuple(1 if seat == state.winner else 2 for seat in range(2))
        return Outcome(ranks, tuple(float(r == 1) for r in ranks), state.reason)

    def dump(self, state):
        return asdict(state)

    def load(self, data):
        return TinyState(**data)


def tiny_computer(state, seat, level, seed):
    """Always adds as much as it may."""
    return TinyEngine().legal_actions(state, seat)[-1]


def render_tiny(session: GameSession):
    image, draw = canvas(200, 100)
    centred_text(draw, (100, 50), str(session.state.total), 40)
    return to_picture(image, f"The counter is at {session.state.total}.")


class TinyAdapter(GameAdapter):
    engine = TinyEngine()
    name, title = "tiny", "Tiny"
    summary = "Add 1 or 2; reach 8 to win."
    rules = "Players add 1 or 2 in turn. Whoever reaches 8 wins."
    computer_player = tiny_computer
    private_view_label = "My view"

    def add_commands(self, group):
        ctx = self.ctx

        @group.command(name="challenge", description="Challenge someone to Tiny.")
        async def challenge(interaction: discord.Interaction, opponent: discord.User) -> None:
            await acknowledge(interaction)
            await ctx.challenge(interaction, "tiny", [opponent], {}, None)

        @group.command(name="add", description="Add 1 or 2.")
        async def add(interaction: discord.Interaction, amount: int) -> None:
            await acknowledge(interaction)
            session_id = await ctx.running_id(interaction, "tiny")
            await ctx.act(session_id, interaction.user.id, {"type": "add", "amount": amount})
            await ctx.reply_private(interaction, f"You added {amount}.")

        async def add_button(interaction, session_id, arg):
            await ctx.act(session_id, interaction.user.id, {"type": "add", "amount": int(arg)})

        ctx.controls.button("tiny_add", add_button)

    def components(self, session):
        return [SessionButton(session.id, "tiny_add", str(a), label=f"+{a}") for a in (1, 2)]

    def render_public(self, session):
        return render_tiny(session)

    def render_private(self, session, seat):
        return render_tiny(session)

    def describe_action(self, session, seat, action):
        if action["type"] == "add":
            return f"{session.names[seat]} added {action['amount']}."
        return ""


__all__ = ["TinyAdapter", "UserError"]
