"""Octa on Discord: `/octa challenge`, the public table picture and a private turn panel.

The game message carries a "Turn panel" button. It answers ephemerally with the player's
hand (drawn as cards) and controls for the current engine step, built only from
``ENGINE.legal_actions`` (so they show exactly what is legal now). Every panel control
carries the session's action number it was built for: a control from an older panel is
refused and the panel is redrawn (the platform also refuses an outdated action under the
session lock). After each action the panel message is replaced by a fresh one for the next
step.
No rules live here: the engine decides and explains (its IllegalAction sentences).

Custom ids (``b:``/``s:<session>:<name>:<arg>``):
- ``octa_panel``  open the panel (game message);
- ``octa_do``     arg ``<action number>:<code>``: one complete action (pile, skip, king, line, pass ...);
- ``octa_pick``   arg ``<action number>:<kind>:<mode>:<group>``: a select; mode ``v`` chooses an action,
  mode ``g`` chooses a group first (a run, a hand card), which redraws the panel narrowed to it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot.adapter import GameAdapter, GameSession
from bot.components import SessionButton, SessionSelect, view_of
from bot.rendering import as_file
from bot.replies import UserError
from engines.octa import (
    ENGINE,
    FACE_DOWN,
    HAND_SIZE,
    POOL_LINES,
    WIN_TABLE_CARDS,
    card_name,
    choose_action,
    table_count,
)
from render.octa import narrate, render_hand, render_table, step_text

MAX_OPTIONS = 25
MAX_ROWS = 5
LINE_NAMES = {"top": "top row", "bottom": "bottom row", "left": "left column", "right": "right column"}

RULES = """\
**Goal**: be the first with an **Octa** (a run of 8+ cards) *and* at least **28 cards** in your runs on the table.
A **run** is 3+ number cards of one suit in a row (A-2-3 ... 9-10-A; the Ace is low or high, never both).
Two decks; J, Q, K are **action cards**. The **pool** is 8 face-up cards around an empty centre holding both tokens.

**Your turn**, step by step (the turn panel shows only what is legal now):
1. You draw a card automatically.
2. Put the revealed action card on **Pile 1** or **Pile 2**. If both visible action cards now share a suit you may \
use it: **Jack** turns a card of any run face down (you take the card), **Queen** takes 2 same-suit pool cards, \
**King** takes 2 cards from the stock or the discard pile. Using it is optional.
3. At most one option: **A** lay a new run from your hand (and put your token on it if it is in the centre); \
**B** (token on your run since an earlier turn) take an outer pool line of 3 and play at least one of those \
cards at once; **C** (token on a pool run) claim that pool run.
4. Optionally **exchange** a hand card with a pool card next to a card of its suit one rank higher or lower; \
if it makes a pool run you may put your token on it (protects it).
5. **Discard** one card (required with 8+ cards; hand limit 8), or end the turn with fewer than 8.
Any time in your turn you may **add cards** to your own runs or replace a Jack's face-down card.
If the stock runs out twice, the most cards on the table wins.

**Commands and buttons**
- `/octa challenge opponent:@someone`: challenge a player (challenge me to play the computer; `level` sets it).
- **Turn panel** (game message): your private panel with your hand and the choices for the current step; \
after each choice it shows the next step. Open it again at any time.
- **My hand**: your hand, privately, at any time.
- **Resign** or `/octa resign`; `/octa board` posts the table again. `/stop`, `/stats`, `/leaderboard`.
"""


@dataclass(frozen=True)
class Choice:
    value: str
    label: str
    group: str = ""
    group_label: str = ""


def _cards(cards: Sequence[str]) -> str:
    return " ".join(card_name(c) for c in cards)


def _slot_text(slot: str) -> str:
    return "?" if slot.startswith(FACE_DOWN) else card_name(slot)


def _run_label(state: Any, owner: int, index: int, viewer: int) -> str:
    run = state.runs[owner][index]
    whose = "Your" if owner == viewer else "Opponent's"
    return f"{whose} run {index + 1}: {' '.join(_slot_text(s) for s in run['slots'])}"[:100]


class OctaAdapter(GameAdapter):
    engine = ENGINE
    name = "octa"
    title = "Octa"
    summary = "Lay runs of cards; an Octa of 8 and 28 cards on the table wins."
    rules = RULES
    computer_player = choose_action
    private_view_label = "My hand"
    narrate = staticmethod(narrate)

    # ------------------------------------------------------------ pictures
    def render_public(self, session: GameSession):
        return render_table(session.state, session.names, None)

    def render_private(self, session: GameSession, seat: int):
        return render_hand(session.state, session.names, seat)

    # --------------------------------------------------------------- texts
    def status_text(self, session: GameSession) -> str:
        state = session.state
        tables = " · ".join(
            f"{name}: {table_count(state, seat)}/{WIN_TABLE_CARDS} on the table, {len(state.hands[seat])} in hand"
            for seat, name in enumerate(session.shown_names)
        )
        if state.over:
            return tables
        return f"Step: {step_text(state)}.\n{tables}"

    # ------------------------------------------------------------ controls
    def components(self, session: GameSession) -> list[discord.ui.Item]:
        return [SessionButton(session.id, "octa_panel", label="Turn panel", style=discord.ButtonStyle.primary)]

    def add_commands(self, group: app_commands.Group) -> None:
        ctx = self.ctx

        # The Turn panel button is on the public game message and answers with a private panel;
        # the panel's own controls update the panel they are on.
        ctx.controls.button("octa_panel", self._open_panel, ack="private")
        ctx.controls.button("octa_do", self._panel_button)
        ctx.controls.select("octa_pick", self._panel_select)

    # ------------------------------------------------------------ the panel: handlers
    async def _player(self, interaction: discord.Interaction, session_id: int) -> tuple[GameSession, int]:
        """The session and the clicker's seat; the panel opens off-turn too (it then says whose turn it is)."""
        session = await self.ctx.sessions.load(session_id)
        return session, self.ctx.sessions.check_can_act(session, interaction.user.id, any_time=True)

    async def _open_panel(self, interaction: discord.Interaction, session_id: int, _: str) -> None:
        session, seat = await self._player(interaction, session_id)
        text, view = self.panel(session, seat)
        picture = await self.ctx.render(render_hand, session.state, session.names, seat)
        await self.ctx.reply_private(interaction, text, picture, view)

    async def _show(
        self,
        interaction: discord.Interaction,
        session: GameSession,
        seat: int,
        focus: tuple[str, str] | None = None,
        note: str = "",
        just_acted: bool = False,
    ) -> None:
        """Replace the panel the control was on with a fresh one (the click is already acknowledged)."""
        text, view = self.panel(session, seat, focus, just_acted)
        picture = await self.ctx.render(render_hand, session.state, session.names, seat)
        if note:
            text = f"{note}\n{text}"
        try:
            await interaction.edit_original_response(content=text, attachments=[as_file(picture)], view=view)
        except discord.HTTPException:  # e.g. the panel is gone: send a new one instead
            await self.ctx.reply_private(interaction, text, picture, view)

    async def _current(
        self, interaction: discord.Interaction, session_id: int, stamp: str
    ) -> tuple[GameSession, int] | None:
        """The session if the control's panel is current (built for this action number);
        otherwise redraw the panel and return None."""
        session, seat = await self._player(interaction, session_id)
        if stamp != str(session.action_number):
            await self._show(
                interaction,
                session,
                seat,
                note="⚠️ That panel was out of date (the game moved on); here is the current one.",
            )
            return None
        return session, seat

    async def _act(
        self, interaction: discord.Interaction, session: GameSession, seat: int, action: dict[str, Any]
    ) -> None:
        # built_for: the platform refuses the action if another one got in first (under the lock).
        session = await self.ctx.act(session.id, interaction.user.id, action, built_for=session.action_number)
        await self._show(interaction, session, seat, just_acted=True)

    async def _panel_button(self, interaction: discord.Interaction, session_id: int, arg: str) -> None:
        stamp, _, code = arg.partition(":")
        checked = await self._current(interaction, session_id, stamp)
        if checked is None:
            return
        session, seat = checked
        await self._act(interaction, session, seat, self._button_action(code))

    async def _panel_select(
        self, interaction: discord.Interaction, session_id: int, arg: str, values: list[str]
    ) -> None:
        parts = arg.split(":")
        if len(parts) != 4 or not values:
            raise UserError("This control is no longer available.")
        stamp, kind, mode, group = parts
        checked = await self._current(interaction, session_id, stamp)
        if checked is None:
            return
        session, seat = checked
        if mode == "g":
            await self._show(interaction, session, seat, focus=(kind, values[0]))
            return
        await self._act(interaction, session, seat, self._select_action(kind, group, values))

    # ------------------------------------------------------------ the panel: decoding
    @staticmethod
    def _button_action(code: str) -> dict[str, Any]:
        simple = {
            "f0": {"type": "flip", "pile": 0},
            "f1": {"type": "flip", "pile": 1},
            "sk": {"type": "skip_action"},
            "cl": {"type": "claim_pool_run"},
            "ps": {"type": "pass_step"},
            "et": {"type": "end_turn"},
            "kstock": {"type": "use_action", "action": "king", "source": "stock"},
            "kdiscard": {"type": "use_action", "action": "king", "source": "discard"},
        }
        if code in simple:
            return simple[code]
        if code.startswith("tl.") and code[3:] in POOL_LINES:
            return {"type": "take_line", "line": code[3:]}
        raise UserError("This control is no longer available.")

    @staticmethod
    def _select_action(kind: str, group: str, values: list[str]) -> dict[str, Any]:
        try:
            if kind in ("lay", "layt"):
                return {"type": "lay_run", "cards": values[0].split("."), "token": kind == "layt"}
            if kind in ("laym", "laymt"):
                return {"type": "lay_run", "cards": list(values), "token": kind == "laymt"}
            if kind == "add":
                head, *rest = values[0].split(".")
                if head == "a":
                    return {"type": "add_to_run", "run": int(rest[0]), "cards": rest[1].split("-")}
                return {"type": "fill_hidden", "owner": int(rest[0]), "run": int(rest[1]), "card": rest[2]}
            if kind == "jack":
                owner, run, slot = (int(x) for x in values[0].split("."))
                return {"type": "use_action", "action": "jack", "owner": owner, "run": run, "slot": slot}
            if kind == "queen":
                return {"type": "use_action", "action": "queen", "positions": sorted(int(v) for v in values)}
            if kind == "xch":
                position, _, line = values[0].partition(".")
                action = {"type": "exchange", "hand_card": group, "pool_position": int(position), "token": bool(line)}
                if line:
                    action["line"] = line
                return action
            if kind == "dis":
                return {"type": "discard", "card": values[0]}
        except (ValueError, IndexError):
            pass
        raise UserError("This control is no longer available.")

    # ------------------------------------------------------------ the panel: building
    def panel(
        self, session: GameSession, seat: int, focus: tuple[str, str] | None = None, just_acted: bool = False
    ) -> tuple[str, discord.ui.View | None]:
        """The panel's text and controls for ``seat`` right now (controls only on its turn)."""
        state = session.state
        said = self.ctx.table.narration(session)
        if session.status != "active" or state.over:
            return (
                f"**Octa: the game is over.** {said}\nYour hand is below (only you can see this).",
                None,
            )
        if state.current != seat:
            last = f"\nLast: {said}" if said else ""
            return (
                f"**Octa**: {'your turn is over. ' if just_acted else ''}It is now "
                f"{session.mention(state.current)}'s turn, not yours; open the Turn panel from the game "
                f"message when your turn comes.{last}\nYour hand is below (only you can see this).",
                None,
            )
        legal = ENGINE.legal_actions(state, seat)
        builder = _PanelBuilder(session.id, state, seat, str(session.action_number), focus)
        lines = [f"**Octa: your turn** (turn {state.turn + 1}). Only you can see this panel."]
        if said:
            lines.append(f"Last: {said}")
        lines.append(f"**Step**: {step_text(state)}.")
        lines += builder.build(legal)
        lines.append(f"Your hand ({len(state.hands[seat])} cards, limit {HAND_SIZE}) is below.")
        return "\n".join(lines), view_of(builder.items) if builder.items else None


class _PanelBuilder:
    """Turns the legal actions of the current step into at most 5 rows of buttons and selects."""

    def __init__(self, session_id: int, state: Any, seat: int, stamp: str, focus: tuple[str, str] | None):
        self.sid, self.state, self.seat, self.stamp, self.focus = session_id, state, seat, stamp, focus
        self.items: list[discord.ui.Item] = []
        self.rows = 0
        self.buttons: list[tuple[str, str, discord.ButtonStyle]] = []

    # -------------------------------------------------------------- pieces
    def button(self, code: str, label: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        self.buttons.append((code, label, style))

    def _row(self) -> int | None:
        if self.rows >= MAX_ROWS:
            return None
        self.rows += 1
        return self.rows - 1

    def select(
        self,
        kind: str,
        placeholder: str,
        choices: list[Choice],
        *,
        group_first: bool = False,
        many: tuple[int, int] | None = None,
    ) -> None:
        """One select of ``choices``; two steps (group, then choice) when they would not fit or
        when ``group_first``. ``many`` = (min, max) for a multi-select."""
        choices = list({(c.group, c.value): c for c in choices}.values())  # e.g. an Ace fitting either end
        if not choices:
            return
        groups: dict[str, str] = {}
        for choice in choices:
            groups.setdefault(choice.group, choice.group_label)
        focused = self.focus is not None and self.focus[0] == kind and self.focus[1] in groups
        if focused or group_first or len(choices) > MAX_OPTIONS:
            chosen = self.focus[1] if focused else None
            row = self._row()
            if row is None:
                return
            options = [
                discord.SelectOption(label=label[:100], value=key, default=key == chosen)
                for key, label in list(groups.items())[:MAX_OPTIONS]
            ]
            self.items.append(
                SessionSelect(
                    self.sid,
                    "octa_pick",
                    f"{self.stamp}:{kind}:g:",
                    options=options,
                    placeholder=placeholder[:150],
                    row=row,
                )
            )
            if not focused:
                return
            choices = [c for c in choices if c.group == chosen]
            placeholder = f"{placeholder.split(':')[0]}: choose"
        row = self._row()
        if row is None:
            return
        shown = choices[:MAX_OPTIONS]
        low, high = many if many else (1, 1)
        options = [discord.SelectOption(label=c.label[:100], value=c.value) for c in shown]
        group = self.focus[1] if focused else ""
        self.items.append(
            SessionSelect(
                self.sid,
                "octa_pick",
                f"{self.stamp}:{kind}:v:{group}",
                options=options,
                placeholder=placeholder[:150],
                row=row,
                min_values=min(low, len(shown)),
                max_values=min(high, len(shown)),
            )
        )

    def flush_buttons(self) -> None:
        if not self.buttons:
            return
        row = self._row()
        if row is None:
            return
        for code, label, style in self.buttons[:5]:
            self.items.append(
                SessionButton(self.sid, "octa_do", f"{self.stamp}:{code}", label=label[:80], style=style, row=row)
            )
        self.buttons = []

    # -------------------------------------------------------------- steps
    def build(self, legal: list[dict[str, Any]]) -> list[str]:
        state, by_type = self.state, {}
        for action in legal:
            by_type.setdefault(action["type"], []).append(action)
        lines: list[str] = getattr(self, f"_step_{state.step}")(by_type)
        self.flush_buttons()
        self._additions(by_type)
        return lines

    def _step_place_action(self, by_type: dict[str, list]) -> list[str]:
        state = self.state
        for action in by_type.get("flip", []):
            pile = action["pile"]
            top = state.action_piles[pile][-1] if state.action_piles[pile] else None
            label = f"Pile {pile + 1}" + (f" (on {card_name(top)})" if top else "")
            self.button(f"f{pile}", label, discord.ButtonStyle.primary)
        revealed = card_name(state.revealed) if state.revealed else "?"
        return [
            f"The revealed action card is **{revealed}**: put it on pile 1 or 2. If the two visible "
            f"action cards then share a suit, you may use it."
        ]

    def _step_action(self, by_type: dict[str, list]) -> list[str]:
        state, uses = self.state, by_type.get("use_action", [])
        new_card = state.action_piles[state.new_pile][-1]
        kinds = {u["action"] for u in uses}
        if "jack" in kinds:
            choices = []
            for use in uses:
                owner, run, slot = use["owner"], use["run"], use["slot"]
                code = state.runs[owner][run]["slots"][slot]
                choices.append(
                    Choice(
                        f"{owner}.{run}.{slot}",
                        f"Turn {card_name(code)} face down",
                        f"{owner}.{run}",
                        _run_label(state, owner, run, self.seat),
                    )
                )
            self.select("jack", "Jack: choose a card of a run to turn face down", choices)
        if "queen" in kinds:
            positions = sorted({p for use in uses for p in use["positions"]})
            choices = [Choice(str(p), f"Pool {p}: {card_name(state.pool[p - 1])}") for p in positions]
            self.select("queen", "Queen: choose 2 pool cards of one suit", choices, many=(2, 2))
        for use in uses:
            if use["action"] == "king":
                self.button(f"k{use['source']}", f"King: 2 cards from the {use['source']}", discord.ButtonStyle.primary)
        if by_type.get("skip_action"):
            self.button("sk", "Skip the action")
        kind = {"J": "Jack", "Q": "Queen", "K": "King"}.get(new_card[:-1], new_card)
        text = f"The suits match: you may use the **{kind}** ({card_name(new_card)}), or skip it."
        if not uses:
            text += " (It cannot be used right now.)"
        return [text]

    def _lay_runs(self, by_type: dict[str, list]) -> None:
        for token in (False, True):
            runs = [a["cards"] for a in by_type.get("lay_run", []) if a["token"] == token]
            if not runs:
                continue
            what = "A: lay a run and put your token on it" if token else "A: lay a run"
            if len(runs) <= MAX_OPTIONS:
                choices = [Choice(".".join(cards), _cards(cards)) for cards in runs]
                self.select("layt" if token else "lay", what, choices)
            else:
                cards = sorted({c for run in runs for c in run})
                choices = [Choice(c, card_name(c)) for c in cards]
                self.select(
                    "laymt" if token else "laym", f"{what} (pick its 3+ cards)", choices, many=(3, len(choices))
                )

    def _step_option(self, by_type: dict[str, list]) -> list[str]:
        state = self.state
        self._lay_runs(by_type)
        for action in by_type.get("take_line", []):
            line = action["line"]
            cards = [state.pool[p - 1] for p in POOL_LINES[line]]
            self.button(f"tl.{line}", f"B: take {LINE_NAMES[line]} ({_cards(cards)})", discord.ButtonStyle.primary)
        if by_type.get("claim_pool_run"):
            self.button("cl", "C: claim your pool run", discord.ButtonStyle.primary)
        if by_type.get("pass_step"):
            self.button("ps", "No option: go to the exchange")
        return ["Choose at most one option: **A** lay a run, **B** take a pool line, **C** claim your pool run."]

    def _step_b_play(self, by_type: dict[str, list]) -> list[str]:
        self._lay_runs(by_type)
        if by_type.get("pass_step"):
            self.button("ps", "Finish option B", discord.ButtonStyle.primary)
        taken = _cards(self.state.b_taken) or "none"
        return [f"You took **{taken}**: play at least one of them onto the table (a new run or added to a run)."]

    def _step_exchange(self, by_type: dict[str, list]) -> list[str]:
        state, choices = self.state, []
        for action in by_type.get("exchange", []):
            position, card = action["pool_position"], action["hand_card"]
            label = f"Pool {position}: take {card_name(state.pool[position - 1])}"
            value = str(position)
            if action["token"]:
                label += f", token on the {LINE_NAMES[action['line']]} run"
                value += f".{action['line']}"
            choices.append(Choice(value, label, card, f"Put in {card_name(card)}"))
        self.select("xch", "Exchange: choose the hand card to put in the pool", choices, group_first=True)
        if by_type.get("pass_step"):
            self.button("ps", "No exchange: go to the discard")
        if not choices:
            return ["No exchange is possible now."]
        if self.focus and self.focus[0] == "xch":
            return [f"Exchange **{card_name(self.focus[1])}**: choose the pool position."]
        return ["Exchange one hand card with a pool card: pick the card, then the pool position."]

    def _step_discard(self, by_type: dict[str, list]) -> list[str]:
        cards = [a["card"] for a in by_type.get("discard", [])]
        choices = [Choice(c, f"Discard {card_name(c)}", c[-1], f"{card_name(c)[-1]} cards") for c in cards]
        self.select("dis", "Discard a card", choices)
        if by_type.get("end_turn"):
            self.button("et", "End the turn", discord.ButtonStyle.primary)
        held = len(self.state.hands[self.seat])
        return [f"You hold {held} cards: discard one" + (" (required)." if held >= HAND_SIZE else ", or end the turn.")]

    def _additions(self, by_type: dict[str, list]) -> None:
        state, choices = self.state, []
        for action in by_type.get("add_to_run", []):
            run = action["run"]
            choices.append(
                Choice(
                    f"a.{run}.{'-'.join(action['cards'])}",
                    f"Add {_cards(action['cards'])}",
                    f"a{run}",
                    _run_label(state, self.seat, run, self.seat),
                )
            )
        for action in by_type.get("fill_hidden", []):
            owner, run, card = action["owner"], action["run"], action["card"]
            choices.append(
                Choice(
                    f"h.{owner}.{run}.{card}",
                    f"Replace the face-down card with {card_name(card)}",
                    f"h{owner}.{run}",
                    _run_label(state, owner, run, self.seat),
                )
            )
        self.select("add", "Any time: add cards to your runs (or fill a face-down card)", choices)
