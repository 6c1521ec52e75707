"""Restart-proof controls: every button, select and modal carries its session in its custom id.

Buttons and selects are matched by pattern (``discord.ui.DynamicItem``) and modals by the
same kind of pattern in ``on_interaction``, so nothing interactive lives only in memory: a
message posted before a restart keeps working, and any number of players can have the same
form open at once. The ``name`` part picks a handler registered in :class:`Controls`; ``arg``
is a short handler-specific detail.

:class:`Controls` is the one dispatcher: it acknowledges each interaction first (before any
database read or render, as the handler declared), then runs the handler through the one
error funnel. A menu's button is the exception: it reads the session first, so that a refusal is
answered at once and privately, and a member on turn gets a deferred update of the game message
(whose token later edits the board without counting against Discord's rate limit).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import discord

from bot.ui.replies import ErrorLog, acknowledge, answer_errors, reply_private, turned_away

CUSTOM_ID_LIMIT = 100
MODAL_PATTERN = re.compile(r"m:(?P<sid>[0-9]+):(?P<name>[a-z_]+):(?P<arg>.*)")
NO_LONGER_AVAILABLE = "This control is no longer available."

# How a handler's interaction is acknowledged before it runs: "update" defers an update of the
# message the control is on, "private" defers a private answer, "modal" leaves the response to
# the handler (it answers with a form, which must be the first response), "own" leaves it to the
# handler too (a menu's button: a refusal is its private answer at once, otherwise it defers an
# update of the game message and sends the menu as a private follow-up).
Ack = Literal["update", "private", "modal", "own"]
HANDLER_ANSWERS = ("modal", "own")  # the acknowledgements a handler makes itself
ButtonHandler = Callable[[discord.Interaction, int, str], Awaitable[None]]
SelectHandler = Callable[[discord.Interaction, int, str, list[str]], Awaitable[None]]
ModalHandler = Callable[[discord.Interaction, int, str, dict[str, str]], Awaitable[None]]


def custom_id(prefix: str, session_id: int, name: str, arg: str) -> str:
    value = f"{prefix}:{session_id}:{name}:{arg}"
    if len(value) > CUSTOM_ID_LIMIT:
        raise ValueError(f"custom id too long: {value!r}")
    return value


@dataclass(frozen=True)
class Registered:
    handler: Callable[..., Awaitable[None]]
    ack: Ack


class Controls:
    """Handlers of every button, select and modal, by name."""

    def __init__(self, errors: ErrorLog):
        self.errors = errors
        self._buttons: dict[str, Registered] = {}
        self._selects: dict[str, Registered] = {}
        self._modals: dict[str, Registered] = {}

    def button(self, name: str, handler: ButtonHandler, ack: Ack = "update") -> None:
        self._buttons[name] = Registered(handler, ack)

    def select(self, name: str, handler: SelectHandler, ack: Ack = "update") -> None:
        self._selects[name] = Registered(handler, ack)

    def modal(self, name: str, handler: ModalHandler) -> None:
        self._modals[name] = Registered(handler, "private")

    async def run(
        self, interaction: discord.Interaction, found: Registered | None, *args: Any, starts: bool = True
    ) -> None:
        """``starts``: the control starts something (a button); a select or a form continues what a
        button started, so it is never turned away when busy: that would waste the steps taken."""
        if found is None:
            await reply_private(interaction, NO_LONGER_AVAILABLE)
            return
        if starts and await turned_away(interaction):
            return
        if found.ack not in HANDLER_ANSWERS:
            await acknowledge(interaction, private=found.ack == "private")
        await answer_errors(interaction, found.handler(interaction, *args), self.errors, f"control {args[:2]}")

    async def on_button(self, interaction: discord.Interaction, session_id: int, name: str, arg: str) -> None:
        await self.run(interaction, self._buttons.get(name), session_id, arg)

    async def on_select(
        self, interaction: discord.Interaction, session_id: int, name: str, arg: str, values: list[str]
    ) -> None:
        await self.run(interaction, self._selects.get(name), session_id, arg, values, starts=False)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Modal submissions, matched by pattern: no modal object is kept in memory."""
        if interaction.type != discord.InteractionType.modal_submit:
            return
        match = MODAL_PATTERN.fullmatch((interaction.data or {}).get("custom_id", ""))
        if match is None:
            return
        values = {
            child["custom_id"]: child.get("value") or ""
            for row in (interaction.data or {}).get("components", [])
            for child in ([row["component"]] if "component" in row else row.get("components", []))
            if "custom_id" in child
        }
        await self.run(
            interaction, self._modals.get(match["name"]), int(match["sid"]), match["arg"], values, starts=False
        )


class SessionButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"b:(?P<sid>[0-9]+):(?P<name>[a-z_]+):(?P<arg>.*)"
):
    def __init__(
        self,
        session_id: int,
        name: str,
        arg: str = "",
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        disabled: bool = False,
        row: int | None = None,
    ):
        self.session_id, self.name, self.arg = session_id, name, arg
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                emoji=emoji,
                disabled=disabled,
                row=row,
                custom_id=custom_id("b", session_id, name, arg),
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> SessionButton:
        return cls(int(match["sid"]), match["name"], match["arg"], label=item.label, style=item.style)

    async def callback(self, interaction: discord.Interaction) -> Any:
        await interaction.client.controls.on_button(interaction, self.session_id, self.name, self.arg)


class SessionSelect(
    discord.ui.DynamicItem[discord.ui.Select], template=r"s:(?P<sid>[0-9]+):(?P<name>[a-z_]+):(?P<arg>.*)"
):
    def __init__(
        self,
        session_id: int,
        name: str,
        arg: str = "",
        *,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        row: int | None = None,
        min_values: int = 1,
        max_values: int = 1,
    ):
        self.session_id, self.name, self.arg = session_id, name, arg
        select = discord.ui.Select(
            custom_id=custom_id("s", session_id, name, arg),
            options=options or [],
            placeholder=placeholder,
            row=row,
            min_values=min_values,
            max_values=max_values,
        )
        super().__init__(select)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> SessionSelect:
        return cls(int(match["sid"]), match["name"], match["arg"])

    async def callback(self, interaction: discord.Interaction) -> Any:
        values = list((interaction.data or {}).get("values", []))
        await interaction.client.controls.on_select(interaction, self.session_id, self.name, self.arg, values)


def session_modal(
    session_id: int, name: str, arg: str, title: str, inputs: list[discord.ui.TextInput]
) -> discord.ui.Modal:
    """A form whose answer is dispatched by its custom id; stopped before it is sent, so
    discord.py keeps no object for it (the answer is handled by :meth:`Controls.on_interaction`)."""
    modal = discord.ui.Modal(title=title[:45], custom_id=custom_id("m", session_id, name, arg))
    for text_input in inputs:
        modal.add_item(text_input)
    modal.stop()
    return modal


def view_of(items: Sequence[discord.ui.Item[Any]]) -> discord.ui.View:
    """A view holding dynamic items; it never times out because the items outlive it."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view
