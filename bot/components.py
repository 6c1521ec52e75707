"""Restart-proof controls: every button and select carries its session id in its custom id.

They are matched by pattern (``discord.ui.DynamicItem``), so a message posted before a
restart keeps working: clicking loads the session from the store. The ``name`` part picks
a handler registered on the platform; ``arg`` is a short handler-specific detail.
"""

from __future__ import annotations

import re
from typing import Any

import discord

CUSTOM_ID_LIMIT = 100


def _custom_id(prefix: str, session_id: int, name: str, arg: str) -> str:
    custom_id = f"{prefix}:{session_id}:{name}:{arg}"
    if len(custom_id) > CUSTOM_ID_LIMIT:
        raise ValueError(f"custom id too long: {custom_id!r}")
    return custom_id


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
                custom_id=_custom_id("b", session_id, name, arg),
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> SessionButton:
        return cls(int(match["sid"]), match["name"], match["arg"], label=item.label, style=item.style)

    async def callback(self, interaction: discord.Interaction) -> Any:
        await interaction.client.platform.on_button(interaction, self.session_id, self.name, self.arg)


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
            custom_id=_custom_id("s", session_id, name, arg),
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
        await interaction.client.platform.on_select(interaction, self.session_id, self.name, self.arg, values)


def view_of(items: list[discord.ui.Item]) -> discord.ui.View:
    """A view holding dynamic items; it never times out because the items outlive it."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view
