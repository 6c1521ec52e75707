"""Octagone on Discord (rules in ``engines/octagone``, pictures and words in ``render/octagone``).

The Place menu (bot/ui/menus.py) narrows the legal actions: the White Lady's row and column
(opening only), the shield (other turns), then the direction, each saying which box it designates.

Four players: while the challenge is open, any player of a pair takes the pair's extra joker
with the challenge's **Take our extra joker** button or `/octagone joker` (decision 2026-11-23;
default: the pair member who sits first). The choice is stored in the challenge's options, so it
survives a restart and reaches the engine as ``extra_joker_seats`` when the game starts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord
from discord import app_commands

from bot.core.sessions import Change
from bot.core.workers import drawing
from bot.ui.adapter import ChallengeOption, GameAdapter, GameSession
from bot.ui.controls import SessionButton
from bot.ui.game_message import conceding
from bot.ui.menus import ActionMenu, Narrowing, Step
from bot.ui.replies import UserError, acknowledge, escape, reply_private
from engines.octagone import (
    ADVANCED,
    BASIC,
    BOXES,
    DIRECTIONS,
    ENGINE,
    JOKER,
    ROW_COLOURS,
    WHITE_LADY,
    aim_options,
    box_colour,
    choose_action,
    shields_left,
    team_shields_left,
)
from render.narration import with_article
from render.octagone import box_words, colour_words, direction_words, render_hand, shield_words

GAME = "octagone"
# Four players: the user id holding each pair's extra joker (pairs: seats {0, 2} and {1, 3}), shown
# on the challenge; the same as seats for the engine (kept in step by ``with_extra_jokers``).
EXTRA_JOKERS = "_extra_jokers"
EXTRA_JOKER_SEATS = "extra_joker_seats"
JOKER_BUTTON = "octagone_joker"
NO_OPEN_CHALLENGE = (
    "There is no open four-player Octagone challenge in this channel: "
    "the extra jokers are chosen before a four-player game starts."
)
ARROWS = {"N": "↑", "NE": "↗", "E": "→", "SE": "↘", "S": "↓", "SW": "↙", "W": "←", "NW": "↖"}


def row_words(row: str) -> str:
    return f"{row} ({colour_words(ROW_COLOURS[row])})"


def with_extra_jokers(options: dict[str, Any], seats: Sequence[int], holders: Sequence[int]) -> dict[str, Any]:
    """``options`` with each pair's extra joker held by ``holders`` (user ids, pair {0, 2} first)."""
    return {**options, EXTRA_JOKERS: list(holders), EXTRA_JOKER_SEATS: [seats.index(h) for h in holders]}


def extra_joker_holders(seats: Sequence[int], earlier: Sequence[int]) -> list[int]:
    """Who holds each pair's extra joker: an earlier holder still in the pair (a choice, or a
    rematch's), else the pair member who sits first (decision 2026-11-23)."""
    pairs = (seats[0::2], seats[1::2])
    return [next((holder for holder in earlier if holder in pair), pair[0]) for pair in pairs]


def take_extra_joker(change: Change, user_id: int) -> str:
    """Give ``user_id``'s pair's extra joker to them in an open four-player challenge."""
    meta = change.meta
    if change.record.status != "challenge" or len(meta.seats) != 4:
        raise UserError(NO_OPEN_CHALLENGE)
    if user_id not in meta.seats:
        raise UserError("Only the four players of this challenge can take a pair's extra joker.")
    pair = meta.seats.index(user_id) % 2
    holders = extra_joker_holders(meta.seats, meta.options.get(EXTRA_JOKERS) or [])
    if holders[pair] == user_id:
        return "You already hold your pair's extra joker: you will start with 2 jokers."
    holders[pair] = user_id
    meta.options = with_extra_jokers(meta.options, meta.seats, holders)
    change.show()
    return "You take your pair's extra joker: you will start with 2 jokers, your partner with 1."


def lady_box(action: Mapping[str, Any]) -> str | None:
    return action["box"] if action["type"] == "white_lady" else None


def aimed_at(at: Narrowing, direction: str) -> str | None:
    """The box ``direction`` designates for the shield and box that every action left shares."""
    action = at.actions[0]
    options = aim_options(at.state, action.get("shield", WHITE_LADY), lady_box(action))
    return next((option["box"] for option in options if option["direction"] == direction), None)


def aimed_box(at: Narrowing, direction: str) -> str | None:
    """The box an arrow would designate, on the board; none free, or one that another direction
    designates too (round the perimeter): a button."""
    action = at.actions[0]
    boxes = [option["box"] for option in aim_options(at.state, action.get("shield", WHITE_LADY), lady_box(action))]
    box = aimed_at(at, direction)
    return f"box:{box}" if box and boxes.count(box) == 1 else None


def aim_label(at: Narrowing, direction: str) -> str:
    box = aimed_at(at, direction)
    return f"{direction} → {box_words(box)}" if box else f"{direction}: no free box left"


def aim_description(at: Narrowing, direction: str) -> str:
    box = aimed_at(at, direction)
    return f"Aim {direction_words(direction)}: the next target is {box}" if box else "No free box: this ends the game"


def aim_prompt(at: Narrowing) -> str:
    box = lady_box(at.actions[0])
    if box:
        return f"**Place the White Lady on {box_words(box)}** (3/3): aim her arrow at the next box."
    shield = shield_words(at.actions[0]["shield"])
    return f"**Place {shield} on {box_words(at.state.target)}**: aim its arrow at a free box."


def shield_prompt(at: Narrowing) -> str:
    target = at.state.target
    colour = with_article(colour_words(box_colour(target)))
    return f"**Place a shield on {box_words(target)}** (1/2): {colour} shield or a joker."


PLACE_MENU = ActionMenu(
    name=GAME,
    button="Place",
    steps=[
        Step(
            lambda action: action["box"][0] if action["type"] == "white_lady" else None,
            "**Place the White Lady** (1/3): choose her row.",
            lambda at, row: f"Row {row_words(row)}",
            placeholder="White Lady: row…",
            where=lambda at, row: f"row:{row}",
        ),
        Step(
            lady_box,
            lambda at: f"**Place the White Lady** (2/3): row {row_words(at.choice(0))}; choose her column.",
            lambda at, box: box_words(box),
            placeholder=lambda at: f"Row {at.choice(0)}: column…",
            where=lambda at, box: f"box:{box}",
        ),
        Step(
            lambda action: action.get("shield"),
            shield_prompt,
            lambda at, shield: f"{colour_words(shield)} (you have {at.state.hands[at.seat][shield]})",
            placeholder=lambda at: f"Shield for {at.state.target}…",
            where=lambda at, shield: f"shield:{shield}",  # in the player's own hand row
        ),
        Step(
            lambda action: action["direction"],
            aim_prompt,
            aim_label,
            aim_description,
            placeholder="Aim the arrow…",
            where=aimed_box,  # the box the arrow would designate; none free: a button
        ),
    ],
)


DIRECTION_CHOICES = [app_commands.Choice(name=f"{d} {ARROWS[d]} ({direction_words(d)})", value=d) for d in DIRECTIONS]
SHIELD_CHOICES = [
    *(app_commands.Choice(name=f"{colour_words(c)} (row {row})", value=c) for row, c in ROW_COLOURS.items()),
    app_commands.Choice(name="joker", value=JOKER),
]


def extra_jokers_line(state: Any, names: Sequence[str]) -> str:
    """Four players, before the first shield: who took each pair's extra joker (they hold 2)."""
    if state.players != 4:
        return ""
    holders = [names[seat] for seat in range(4) if state.hands[seat][JOKER] == 2]
    return f"🃏 Extra jokers (2 jokers each): {' and '.join(holders)}.\n"


class OctagoneAdapter(GameAdapter):
    engine = ENGINE
    name = GAME
    title = "Octagone"
    summary = "Place aimed shields where the last arrow points; fewest shields left wins (2 or 4 players)."
    computer_player = choose_action
    private_view_label = "My shields"
    menus = (PLACE_MENU,)
    team_play = True
    computer_takes_any_seat = True  # as a partner or an opponent in four players (decision 2026-11-23)
    challenge_extras = (
        ChallengeOption(
            "rules",
            "basic (first part of the rules) or advanced (default; required for four players)",
            (("advanced (joker rule, perimeter connections)", ADVANCED), ("basic (first part of the rules)", BASIC)),
        ),
        ChallengeOption("open_hands", "Show every hand on the board (default: hands are hidden)"),
    )

    def challenge_options(self, chosen: dict[str, Any], seats: dict[str, int | None]) -> dict[str, Any]:
        if "partner" in seats and chosen.get("rules") == BASIC:
            raise UserError("Four players play the advanced level only: leave `rules` out or choose advanced.")
        options: dict[str, Any] = {
            "level": chosen.get("rules") or ADVANCED,
            "open_hands": bool(chosen.get("open_hands")),
        }
        if "partner" in seats:
            options["_pairs"] = [[seats["challenger"], seats["partner"]], [seats["opponent"], seats["opponent2"]]]
        return options

    def __init__(self, ctx):
        super().__init__(ctx)
        ctx.controls.button(JOKER_BUTTON, self._joker_button, ack="private")

    def challenge_components(self, session: GameSession) -> list[discord.ui.Item]:
        """Four players: a button for any of them to take their pair's extra joker."""
        if len(session.meta.seats) != 4:
            return []
        return [SessionButton(session.id, JOKER_BUTTON, label="Take our extra joker", emoji="🃏")]

    async def _joker_button(self, interaction: discord.Interaction, session_id: int, _: str) -> None:
        async with self.ctx.sessions.change(session_id) as change:
            answer = take_extra_joker(change, interaction.user.id)
        await reply_private(interaction, answer)

    def seated_options(self, options: dict[str, Any], seats: Sequence[int]) -> dict[str, Any]:
        """Four players: who holds each pair's extra joker, shown on the challenge from the start."""
        if len(seats) != 4:
            return {k: v for k, v in options.items() if k not in (EXTRA_JOKERS, EXTRA_JOKER_SEATS)}
        return with_extra_jokers(options, seats, extra_joker_holders(seats, options.get(EXTRA_JOKERS) or []))

    def options_text(self, options: dict[str, Any]) -> str:
        text = super().options_text({k: v for k, v in options.items() if k != EXTRA_JOKER_SEATS})
        holders = options.get(EXTRA_JOKERS)
        if not holders:
            return text
        held = " and ".join(f"<@{holder}>" for holder in holders)
        how = "**Take our extra joker** or `/octagone joker`"
        return f"{text}. 🃏 Extra jokers: {held} (any player can take their pair's with {how})"

    def seat_order(self, challenger: int, invitees: Sequence[int], options: dict[str, Any]) -> list[int]:
        """Two players: challenger, opponent. Four: challenger, opponent, partner, second opponent;
        the pairs (``_pairs``, user ids) stay together in a rematch started by any of the four."""
        if len(invitees) != 3:
            return [challenger, *invitees]
        mine = next((pair for pair in options.get("_pairs") or [] if challenger in pair), None)
        partner = next((p for p in mine if p != challenger), None) if mine else None
        if partner not in invitees:
            partner = invitees[1]
        opponents = [p for p in invitees if p != partner]
        return [challenger, opponents[0], partner, opponents[1]]

    def computer_seats(self, session: GameSession) -> set[int]:
        """The seats the computer plays: with other members at the table, its move right after a
        member's is told together with that member's (bot/core/change.py)."""
        return {seat for seat, player in enumerate(session.players) if player == self.ctx.me}

    def private_picture(self, session: GameSession, seat: int):
        return drawing(render_hand, session.state, session.names, seat)

    def components(self, session: GameSession) -> list[discord.ui.Item]:
        return [self.ctx.menus.button(session, PLACE_MENU)]

    def status_text(self, session: GameSession) -> str:
        state, names = session.state, session.shown_names
        if state is None:
            return ""
        counts = "Shields left: " + " · ".join(f"{names[s]} {shields_left(state, s)}" for s in range(state.players))
        if state.players == 4:
            pairs = (f"{names[a]} & {names[a + 2]} {team_shields_left(state, a)}" for a in (0, 1))
            counts += "\nPairs: " + " · ".join(pairs)
        if state.over:
            return final_count_line(session, names) + counts
        if session.status != "active":  # stopped: no target to play on
            return counts
        if state.opening:
            return "🎯 Opening: the White Lady goes on any box.\n" + extra_jokers_line(state, names) + counts
        target, colour = state.target, colour_words(box_colour(state.target))
        return (
            f"🎯 Target: **{target}** ({colour}, row {target[0]}): {with_article(colour)} shield or a joker.\n" + counts
        )

    @app_commands.command(
        name="place", description="Place a shield on the target box and aim it (or open with the White Lady)."
    )
    @app_commands.describe(
        direction="Where the arrow points: it must designate a free box",
        shield="The shield: the target box's colour, or a joker",
        box="Opening only: the White Lady's box, e.g. C4",
    )
    @app_commands.choices(direction=DIRECTION_CHOICES, shield=SHIELD_CHOICES)
    async def place(
        self, interaction: discord.Interaction, direction: str, shield: str | None = None, box: str | None = None
    ) -> None:
        await acknowledge(interaction)
        session = await self.ctx.session_for(interaction, GAME)
        state = session.state
        action = {"type": "white_lady" if state.opening else "place", "direction": direction}
        if state.opening and box is None:
            raise UserError("The game opens with the White Lady: give her `box` (e.g. C4) and a `direction`.")
        if not state.opening:
            if shield is None:
                raise UserError(f"Choose a `shield` for box {box_words(state.target)}: its colour or joker.")
            action["shield"] = shield
        if box is not None:
            action["box"] = box.strip().upper().replace(" ", "")
            if action["box"] not in BOXES:
                raise UserError(f"`{escape(box, 20)}` is not a box: use a row A–F and a column 1–7, e.g. C4.")
        session = await self.ctx.act(session.id, interaction.user.id, action)
        await self.ctx.reply_private(interaction, self.ctx.table.done(session))

    @app_commands.command(
        name="joker", description="Four players: take your pair's extra joker in this channel's open challenge."
    )
    async def joker(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        found = await self.ctx.reads.live_game_in(interaction.channel_id)
        if found is None or found[1] != GAME:
            raise UserError(NO_OPEN_CHALLENGE)
        async with self.ctx.sessions.change(found[0]) as change:
            answer = take_extra_joker(change, interaction.user.id)
        await reply_private(interaction, answer)

    @place.autocomplete("box")
    async def box_autocomplete(self, interaction: discord.Interaction, current: str):
        typed = current.strip().upper()
        return [app_commands.Choice(name=box_words(b), value=b) for b in BOXES if b.startswith(typed)][:25]


def final_count_line(session: GameSession, names: Sequence[str]) -> str:
    """A finished game's heading: the final count, or, when a seat resigned or ran out of time,
    that there was none ("🏁 Di resigned: no final count. ")."""
    conceded = conceding(session)
    if conceded is None:
        return "🏁 Final count. "
    how = "resigned" if conceded[0] == "resign" else "ran out of time"
    return f"🏁 {names[conceded[1]]} {how}: no final count. "


__all__ = ["OctagoneAdapter"]
