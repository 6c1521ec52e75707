"""Octagion's variants: **Build variant** answers with a form (in party mode each member types
only their own cards), and the form's answer (or `/octagion play`'s) is parsed by the engine in
the change. Variants move the action number all the time, so these controls carry their round
(the engine refuses a late one) instead of the action number."""

from __future__ import annotations

import asyncio

import discord

from bot.core.sessions import Change
from bot.games.octagion.names import BUILD, VARIANT
from bot.ui.context import GameContext
from bot.ui.controls import session_modal
from bot.ui.replies import BUSY_TEXT, UserError
from engines.octagion import left_empty, own_cells, party_numbers, team_of
from render import octagion as show


class Variants:
    """The Build variant form and its answer."""

    def __init__(self, ctx: GameContext):
        self.ctx = ctx
        ctx.controls.button(BUILD, self._build_button, ack="modal")
        ctx.controls.modal(VARIANT, self.set_variant)

    async def _build_button(self, interaction: discord.Interaction, session_id: int, arg: str) -> None:
        """A form must be the first answer, so this is the one handler that reads before answering:
        with a short limit, so a locked database gets a clear "try again" within Discord's window."""
        try:
            session = await asyncio.wait_for(self.ctx.sessions.load(session_id), timeout=2)
        except TimeoutError:
            raise UserError(BUSY_TEXT) from None
        seat = self.ctx.sessions.check_can_act(session, interaction.user.id, any_time=True)
        state = session.state
        if state.resigned[seat]:
            raise UserError("You left this game.")
        if state.phase != "playing" or str(state.round) != arg:
            raise UserError("The round is over; wait for the next one.")
        team = team_of(state, seat)
        variant = state.variants[team]
        if state.options["party"]:  # a member answers with their own cards only
            mine = own_cells(state, seat)
            numbers = show.numbers_text(party_numbers(state, seat))
            label = f"Your cards ({numbers}) for {state.words[team]}"
            default = " ".join(f"{position}:{card}" for position, card in mine.items()) or None
            placeholder = party_placeholder(state.words[team])
        else:
            label = f"Spell {state.words[team]}"
            default = show.variant_text(variant) if any(variant) else None
            placeholder = variant_placeholder(state.words[team])
        cards = discord.ui.TextInput(
            label=label[:45],
            custom_id="variant",
            required=False,
            max_length=80,
            default=default,
            placeholder=placeholder,
        )
        await interaction.response.send_modal(
            session_modal(session_id, VARIANT, arg, f"Octagion · round {state.round}", [cards])
        )

    def apply(self, change: Change, user_id: int, text: str, round_no: str = "") -> int:
        """A member's variant for the round, however it was typed (the form, `/octagion play`, the
        Activity's board): the one place its rules are checked. Returns the member's seat."""
        seat = self.ctx.sessions.check_can_act(change.session, user_id, any_time=True)
        if round_no and str(change.state.round) != round_no:
            raise UserError(f"Round {round_no} is already over.")
        # A variant is private until the round ends: nothing public to redraw.
        change.apply(seat, {"type": "set_variant", "text": text[:200]}, by=user_id, quiet=True)
        return seat

    async def set_variant(
        self, interaction: discord.Interaction, session_id: int, round_no: str, values: dict[str, str]
    ) -> None:
        """The variant form's answer for its round (or `/octagion play`'s, with no round): the engine
        parses the text in the change."""
        async with self.ctx.sessions.change(session_id) as change:
            seat = self.apply(change, interaction.user.id, values.get("variant", ""), round_no)
        picture = await self.ctx.render(show.render_variant, change.state, change.session.names, seat)
        told = "".join(f"⚠️ {note[0].upper()}{note[1:]}.\n" for note in left_empty(change.state))
        text = told + show.variant_sentence(change.state, seat) + " Only you can see this."
        await self.ctx.reply_private(interaction, text, picture)


def variant_placeholder(word: str, treatments: bool = True) -> str:
    """The form's example, in the round's own letters: "G# A# R# … (# a card number) · ..."."""
    letters = " ".join(f"{letter}#" for letter in word[:3].upper())
    treatment = " * Treatment," if treatments else ""
    return f"{letters} … (# a card number) · a digit alone,{treatment} _ empty"


def party_placeholder(word: str) -> str:
    """A party member's example, in the round's own letters: each card where its letter is, or with its position."""
    first, second = word[:2].upper()
    return f"{first}# {second}# (# a card number) or 1:{first}# 2:{second}# · 3:* a Treatment Card"
