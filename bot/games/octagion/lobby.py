"""Octagion's lobby: members join (a team, in team mode) or leave, the host picks the variations,
the countdown's difficulty, computer teams and, with Beta, each team's Treatment Cards, then
presses **Start**. A lobby closes after ``LOBBY_IDLE_MINUTES`` without activity."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

import discord
from discord import ButtonStyle

from bot.core.sessions import Change, GameSession, SessionMeta
from bot.core.store import TimerRecord
from bot.games.octagion.computers import MAX_COMPUTER_TEAMS, computer_name, computers_of
from bot.games.octagion.names import (
    BUTTON,
    COMPUTERS,
    COUNTDOWN,
    GAME,
    HANDICAP,
    HANDICAP_FORM,
    LOBBY_EXPIRY,
    ROUND_POST,
    TEAM,
    VARIATIONS,
)
from bot.ui.context import GameContext
from bot.ui.controls import SessionButton, SessionSelect, session_modal, view_of
from bot.ui.game_message import EDIT_TEXT, versus
from bot.ui.replies import BUSY_TEXT, UserError
from engines.base import IllegalAction
from engines.octagion import ENGINE, MAX_TREATMENT_CARDS, normalise_variations
from engines.octagion import VARIATIONS as VARIATION_NAMES
from render import octagion as show

LOBBY_IDLE_MINUTES = 15
SEATING_OPTIONS = ("teams", "treatment_per_team")  # worked out again from the lobby at every start
COUNTDOWN_HELP = {"easy": "levels 1-2: longer rounds", "standard": "all levels", "hard": "levels 2-3: shorter rounds"}
ADD_COMPUTER, REMOVE_COMPUTER = "add:", "remove"


def _playable(players: int, options: dict[str, Any], refusal: str) -> None:
    try:
        ENGINE.new_game(players, options, 0)
    except (ValueError, IllegalAction) as error:
        raise UserError(f"{refusal}: {error}.") from None


def _check_lobby(change: Change) -> None:
    if change.record.status != "lobby":
        raise UserError("This lobby is closed.")


def _check_host(change: Change, user_id: int, what: str) -> None:
    _check_lobby(change)
    if user_id != change.record.host_id:
        raise UserError(f"Only the host (<@{change.record.host_id}>) can {what}.")


def _variations(options: dict[str, Any]) -> list[str]:
    return normalise_variations(options.get("variation"))


def lobby_teams(session: GameSession) -> list[show.LobbyTeam]:
    """The lobby's teams in the order shown: teams (or players on their own), then computers."""
    meta, names = session.meta, session.shown_names
    handicap = meta.options.get("handicap", {}) if "beta" in _variations(meta.options) else None
    base = meta.options.get("treatment", 3)

    def team(key: str, title: str, members: list[str]) -> show.LobbyTeam:
        treatment = None if handicap is None else handicap.get(key, base)
        return show.LobbyTeam(key, title, tuple(members), treatment)

    if meta.team_count:
        chosen = [meta.player_teams.get(str(uid), 0) for uid in session.players]
        teams = [
            team(f"t{t}", f"Team {t + 1}", [name for name, c in zip(names, chosen, strict=True) if c == t])
            for t in range(meta.team_count)
            if t in chosen
        ]
    else:
        teams = [team(f"u{uid}", name, [name]) for uid, name in zip(session.players, names, strict=True)]
    computers = computers_of(meta.options)
    for k, level in enumerate(computers):
        teams.append(team(f"c{k}", computer_name(k, len(computers), level), []))
    return teams


def chosen_variations(text: str) -> list[str]:
    """Typed variations as the rules they switch on; a sentence when they cannot be combined."""
    try:
        return normalise_variations(text)
    except ValueError as error:
        raise UserError(f"Those variations do not work together: {error}.") from None


def _handicap_counts(text: str, teams: int) -> list[int]:
    numbers = text.replace(",", " ").split()
    if len(numbers) != teams or not all(n.isdigit() and int(n) <= MAX_TREATMENT_CARDS for n in numbers):
        raise UserError(
            f"Give {teams} numbers from 0 to {MAX_TREATMENT_CARDS}, one per team in the lobby's order, e.g. "
            + " ".join(["3"] * teams)
            + "."
        )
    return [int(n) for n in numbers]


class Lobby:
    """A lobby's message and controls, joining and leaving, the host's choices, and the start."""

    def __init__(self, ctx: GameContext, title: str, computer_levels: Sequence[str]):
        self.ctx = ctx
        self.title = title
        self.computer_levels = computer_levels
        ctx.controls.select(TEAM, self._team_select)
        ctx.controls.select(VARIATIONS, self._variations_select)
        ctx.controls.select(COUNTDOWN, self._countdown_select)
        ctx.controls.select(COMPUTERS, self._computers_select)
        ctx.controls.button(HANDICAP, self._handicap_button, ack="modal")
        ctx.controls.modal(HANDICAP_FORM, self._handicap_form)
        ctx.timers.register(LOBBY_EXPIRY, self._lobby_expiry_timer)

    def message(self, session: GameSession) -> tuple[str, discord.ui.View | None]:
        meta, host = session.meta, f"<@{session.record.host_id}>"
        text = show.lobby_text(host, meta.options, lobby_teams(session), bool(meta.team_count))
        if meta.team_count:
            options = [discord.SelectOption(label=f"Team {t + 1}", value=str(t)) for t in range(meta.team_count)]
            first = SessionSelect(session.id, TEAM, placeholder="Join a team…", options=options, row=0)
        else:
            first = SessionButton(session.id, BUTTON, "join", label="Join", style=ButtonStyle.primary, row=0)
        items: list[discord.ui.Item] = [
            first,
            SessionButton(session.id, BUTTON, "leave", label="Leave", row=1),
            SessionButton(session.id, BUTTON, "start", label="Start", style=ButtonStyle.success, row=1),
        ]
        variations = _variations(meta.options)
        if "beta" in variations:
            items.append(SessionButton(session.id, HANDICAP, label="Treatment Cards per team…", row=1))
        items.append(self._variations_menu(session.id, variations))
        if "gamma" in variations:
            items.append(self._countdown_menu(session.id, meta.options.get("gamma_levels", "standard")))
        items.append(self._computers_menu(session.id, computers_of(meta.options)))
        return text, view_of(items)

    @staticmethod
    def _variations_menu(session_id: int, variations: list[str]) -> SessionSelect:
        options = [
            discord.SelectOption(
                label=name.capitalize(), value=name, description=show.VARIATION_HELP[name], default=name in variations
            )
            for name in VARIATION_NAMES
        ]
        return SessionSelect(
            session_id,
            VARIATIONS,
            placeholder="Variations (host): basic rules",
            options=options,
            row=2,
            min_values=0,
            max_values=len(options),
        )

    @staticmethod
    def _countdown_menu(session_id: int, levels: str) -> SessionSelect:
        options = [
            discord.SelectOption(
                label=f"{name.capitalize()} countdown", value=name, description=shown, default=name == levels
            )
            for name, shown in COUNTDOWN_HELP.items()
        ]
        return SessionSelect(session_id, COUNTDOWN, placeholder="Countdown difficulty (host)", options=options, row=3)

    @staticmethod
    def _computers_menu(session_id: int, computers: list[str]) -> SessionSelect:
        options = [
            discord.SelectOption(label=f"Add a computer team ({level})", value=f"{ADD_COMPUTER}{level}")
            for level in ("easy", "medium", "hard")
        ]
        if computers:
            options.append(discord.SelectOption(label="Remove the last computer team", value=REMOVE_COMPUTER))
        return SessionSelect(session_id, COMPUTERS, placeholder="Computer teams (host)…", options=options, row=4)

    async def _variations_select(self, interaction, session_id: int, _: str, values: list[str]) -> None:
        async with self.ctx.sessions.change(session_id) as change:
            _check_host(change, interaction.user.id, "choose the variations")
            variations = chosen_variations(" ".join(values) or "none")
            options = change.meta.options
            options["variation"] = variations
            if "gamma" not in variations:
                options.pop("gamma_levels", None)
            _playable(1, options, "Those options do not work")
            self._keep_lobby_open(change)

    async def _countdown_select(self, interaction, session_id: int, _: str, values: list[str]) -> None:
        async with self.ctx.sessions.change(session_id) as change:
            _check_host(change, interaction.user.id, "set the countdown")
            if not values or values[0] not in COUNTDOWN_HELP:
                raise UserError("Pick easy, standard or hard.")
            change.meta.options["gamma_levels"] = values[0]
            self._keep_lobby_open(change)

    async def _computers_select(self, interaction, session_id: int, _: str, values: list[str]) -> None:
        async with self.ctx.sessions.change(session_id) as change:
            _check_host(change, interaction.user.id, "add or remove computer teams")
            computers = computers_of(change.meta.options)
            choice = values[0] if values else ""
            if choice == REMOVE_COMPUTER and computers:
                computers.pop()
                change.meta.options.get("handicap", {}).pop(f"c{len(computers)}", None)
            elif choice.startswith(ADD_COMPUTER) and choice[len(ADD_COMPUTER) :] in self.computer_levels:
                if len(computers) >= MAX_COMPUTER_TEAMS:
                    raise UserError(f"A game has at most {MAX_COMPUTER_TEAMS} computer teams.")
                if len(change.record.players) + len(computers) >= ENGINE.max_players:
                    raise UserError(f"The lobby is full ({ENGINE.max_players} players).")
                computers.append(choice[len(ADD_COMPUTER) :])
            else:
                raise UserError("Pick one of the choices in the list.")
            change.meta.options["computers"] = computers
            self._keep_lobby_open(change)

    async def _handicap_button(self, interaction: discord.Interaction, session_id: int, _: str) -> None:
        """Beta's handicap: a form with one number per team, in the lobby's order (a form must be
        the first answer, so this reads before answering, with a short limit like Build variant)."""
        try:
            session = await asyncio.wait_for(self.ctx.sessions.load(session_id), timeout=2)
        except TimeoutError:
            raise UserError(BUSY_TEXT) from None
        if session.status != "lobby":
            raise UserError("This lobby is closed.")
        if interaction.user.id != session.record.host_id:
            raise UserError(f"Only the host (<@{session.record.host_id}>) can set the Treatment Cards.")
        teams = lobby_teams(session)
        counts = discord.ui.TextInput(
            label=f"Treatment Cards (0-{MAX_TREATMENT_CARDS}), one number per team"[:45],
            custom_id="counts",
            max_length=80,
            default=" ".join(str(team.treatment) for team in teams),
            placeholder="e.g. 3 3 1 5, in the lobby's order",
        )
        order = discord.ui.TextInput(
            label="The teams, in that order",
            custom_id="order",
            required=False,
            style=discord.TextStyle.paragraph,
            max_length=1000,
            default=", ".join(team.title for team in teams)[:1000],
        )
        form = session_modal(session_id, HANDICAP_FORM, "", "Octagion · Treatment Cards per team", [counts, order])
        await interaction.response.send_modal(form)

    async def _handicap_form(self, interaction, session_id: int, _: str, values: dict[str, str]) -> None:
        async with self.ctx.sessions.change(session_id) as change:
            _check_host(change, interaction.user.id, "set the Treatment Cards")
            if "beta" not in _variations(change.meta.options):
                raise UserError("Treatment Cards per team are Rule Beta: turn Beta on first.")
            teams = lobby_teams(change.session)
            counts = _handicap_counts(values.get("counts", ""), len(teams))
            change.meta.options["handicap"] = {team.key: count for team, count in zip(teams, counts, strict=True)}
            self._keep_lobby_open(change)
        shown = " · ".join(f"{team.title} {count}" for team, count in zip(teams, counts, strict=True))
        await self.ctx.reply_private(interaction, f"Treatment Cards per team: {shown}.")

    @staticmethod
    def _keep_lobby_open(change: Change) -> None:
        """Any activity restarts the lobby's idle clock."""
        change.cancel_timers([LOBBY_EXPIRY])
        change.add_timer(LOBBY_EXPIRY, change.now + timedelta(minutes=LOBBY_IDLE_MINUTES))
        change.show()

    async def open(
        self,
        interaction: discord.Interaction,
        options: dict[str, Any],
        team_count: int | None,
        where: int | None = None,
    ) -> None:
        """A lobby in this channel (its card, when the game is to be played in a thread of its
        own), or in ``where`` (a rematch, in its game's thread)."""
        _playable(1, options, "Those options do not work")  # now, not when the host presses Start
        user, teams = interaction.user, {str(interaction.user.id): 0} if team_count else {}
        meta = SessionMeta(names=[user.display_name], options=options, team_count=team_count, player_teams=teams)
        in_thread, reason = (False, None) if where else await self.ctx.threads.placement(interaction)
        told = await self.ctx.threads.tell_once(interaction, reason)
        async with self.ctx.sessions.open(
            game=GAME,
            guild_id=interaction.guild_id,
            channel_id=where or interaction.channel_id,
            host_id=user.id,
            players=[user.id],
            status="lobby",
            meta=meta,
            busy_text=self.ctx.busy_text,
            in_thread=in_thread,
        ) as change:
            self._keep_lobby_open(change)
        await self.ctx.first_message_or_close(interaction, change)
        if told:
            await self.ctx.reply_private(interaction, told)
        shown = "in the game's thread" if where else "below"
        after = "; the game gets a thread of its own" if in_thread else ""
        await self.ctx.reply_private(
            interaction, f"The lobby is open {shown}; press **Start** when everyone has joined{after}."
        )

    async def rematch(self, interaction: discord.Interaction, session: GameSession) -> None:
        """A rematch is a new lobby with the same options (players choose their teams again), in
        the game's thread when it had one."""
        options = {key: value for key, value in session.options.items() if key not in SEATING_OPTIONS}
        await self.open(interaction, options, session.meta.team_count, where=session.record.thread_id)

    async def _team_select(self, interaction: discord.Interaction, session_id: int, _: str, values: list[str]) -> None:
        team = int(values[0]) if values and values[0].isdigit() else -1
        await self.change_membership(interaction.user, session_id, team)

    async def change_membership(self, user: discord.abc.User, session_id: int, team: int | None, leave: bool = False):
        """Join (with ``team``: join or switch to it) or leave."""
        async with self.ctx.sessions.change(session_id) as change:
            _check_lobby(change)
            players, names, chosen = change.record.players, change.meta.names, change.meta.player_teams
            if leave:
                if user.id not in players:
                    raise UserError("You are not in this lobby.")
                if user.id == change.record.host_id:
                    raise UserError("You are the host: press **Start**, or close the lobby with `/stop`.")
                index = players.index(user.id)
                del players[index], names[index]
                chosen.pop(str(user.id), None)
            elif user.id not in players:
                if user.bot:
                    raise UserError("Bots cannot play Octagion.")
                if len(players) + len(computers_of(change.meta.options)) >= ENGINE.max_players:
                    raise UserError(f"The lobby is full ({ENGINE.max_players} players).")
                players.append(user.id)
                names.append(user.display_name)
            elif team is None:
                raise UserError("You are already in this lobby.")
            if team is not None:
                if not 0 <= team < (change.meta.team_count or 0):
                    raise UserError("Pick one of the teams in the list.")
                chosen[str(user.id)] = team
            self._keep_lobby_open(change)

    async def _lobby_expiry_timer(self, change: Change, _: TimerRecord) -> None:
        if change.record.status == "lobby":
            closed = f"⌛ The {self.title} lobby closed after {LOBBY_IDLE_MINUTES} minutes without a start."
            change.end("expired", closed)

    async def start(self, user_id: int, session_id: int) -> None:
        async with self.ctx.sessions.change(session_id) as change:
            _check_host(change, user_id, "start the game")
            players, names, options = self._seating(change.session)
            _playable(len(players), options, "The game cannot start")
            change.cancel_timers([LOBBY_EXPIRY])
            change.start(players, names, options, self.ctx.new_seed())
            change.quiet()  # the round gets its own message; the lobby's says who started
            if change.record.message_id:
                sides = versus(self.ctx.table.side_seats(change.session), change.session.shown_names)
                who = f"{sides} (a practice game)" if len(players) == 1 else sides
                started = f"## {self.title}\n▶ Started by <@{change.record.host_id}>: {who}."
                change.post(EDIT_TEXT, {"message_id": change.record.message_id, "content": started})
            change.post(ROUND_POST, {"round": 1})

    def _seating(self, session: GameSession) -> tuple[list[int], list[str], dict[str, Any]]:
        """Seats (team mates together, in joining order; computer teams last), their names, and the
        options the engine gets: each seat's team and Beta's handicap per team."""
        meta = session.meta
        chosen = [meta.player_teams.get(str(uid), 0) for uid in session.players]
        seats = sorted(range(len(chosen)), key=chosen.__getitem__) if meta.team_count else range(len(chosen))
        players = [session.players[s] for s in seats]
        names = [meta.names[s] for s in seats]
        keys = [f"t{chosen[s]}" if meta.team_count else f"u{session.players[s]}" for s in seats]
        computers = computers_of(meta.options)
        for k, level in enumerate(computers):
            players.append(self.ctx.me)
            names.append(computer_name(k, len(computers), level))
            keys.append(f"c{k}")
        team_of_key = {key: index for index, key in enumerate(dict.fromkeys(keys))}
        options = {key: value for key, value in meta.options.items() if key not in SEATING_OPTIONS}
        options["teams"] = [team_of_key[key] for key in keys]
        if "beta" in _variations(meta.options) and meta.options.get("handicap"):
            handicap = meta.options["handicap"]
            options["treatment_per_team"] = {team_of_key[k]: n for k, n in handicap.items() if k in team_of_key}
        return players, names, options

    # ------------------------------------------------------------ rounds
