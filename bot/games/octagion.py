"""Octagion on Discord: a lobby, timed rounds, variants by form or command, Got it!, results.

Thin glue: the rules live in ``engines.octagion``, the pictures and texts in ``render.octagion``.
``/octagion start`` opens a lobby (closed after ``LOBBY_IDLE_MINUTES`` idle); the host presses
**Start**. Each round is a new message through the outbox, its clock armed only once it is out.
A round ends once, by the timer or by **Got it!** (the engine refuses the second), in the change
that also writes its result and the next round's timer, so nothing is lost between them.

Four controls: one button (join, leave, start, or ``gotit:<round>``), the team select, **Build
variant** (it answers with a form) and that form. Variants move the action number all the time,
so a round's controls carry their round (the engine refuses a late one) instead of the action
number; who may act is the platform's ``check_can_act`` (any time: everyone plays at once).

Octagion Daily, one word a day played privately, hangs under `/octagion daily`; its work is
in ``bot.games.octagion_daily``.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import discord
from discord import ButtonStyle, app_commands

from bot.adapter import GameAdapter, GameSession
from bot.core.outbox import Outgoing
from bot.core.sessions import Change, SessionMeta
from bot.core.store import TimerRecord
from bot.core.workers import drawing
from bot.games.octagion_daily import OctagionDaily
from bot.ui.controls import SessionButton, SessionSelect, session_modal, view_of
from bot.ui.game_message import EDIT_TEXT
from bot.ui.replies import BUSY_TEXT, UserError, acknowledge
from engines.base import IllegalAction
from engines.octagion import (
    ENGINE,
    MAX_TREATMENT_CARDS,
    choose_action,
    normalise_variations,
    own_cells,
    party_numbers,
    round_seconds,
    team_of,
    think_seconds,
)
from engines.octagion import VARIATIONS as VARIATION_NAMES
from render import octagion as show

GAME = "octagion"
NEXT_ROUND_PAUSE = 15  # seconds between a round's result and the next round
MAX_TEXT = 1900
LOBBY_IDLE_MINUTES = 15
ROUND_END, NEXT_ROUND, LOBBY_EXPIRY = "octagion_round_end", "octagion_next_round", "octagion_lobby_expiry"
ROUND_POST, RESULT_POST, ROUND_OVER = "octagion_round", "octagion_result", "octagion_round_over"
BUTTON, TEAM, BUILD, VARIANT = "octagion", "octagion_team", "octagion_build", "octagion_variant"  # the controls
# The host's lobby controls: the variations, the countdown's difficulty, computer teams, Beta's handicap.
VARIATIONS, COUNTDOWN, COMPUTERS = "octagion_variations", "octagion_countdown", "octagion_computers"
HANDICAP, HANDICAP_FORM = "octagion_handicap", "octagion_handicap_form"
COMPUTER_MOVE = "octagion_computer_move"  # a computer team's answer, some seconds into a round
MAX_COMPUTER_TEAMS = 4
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


def computers_of(options: dict[str, Any]) -> list[str]:
    """The levels of the computer teams the host added (they sit after the members, one per team)."""
    return list(options.get("computers", []))


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
        teams.append(team(f"c{k}", _computer_name(k, len(computers), level), []))
    return teams


def _chosen_variations(text: str) -> list[str]:
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


def _only_computers_left(state: Any, computers: range) -> bool:
    return all(state.resigned[seat] for seat in range(state.players) if seat not in computers)


def _computer_name(index: int, count: int, level: str) -> str:
    return f"Computer {index + 1} ({level})" if count > 1 else f"Computer ({level})"


def _in(session: GameSession, phase: str, round_no: Any) -> bool:
    """Whether the game still runs in ``phase`` of that round (else a late post or timer does nothing)."""
    return session.status == "active" and session.state.phase == phase and session.state.round == round_no


class OctagionAdapter(GameAdapter):
    engine = ENGINE
    name, title = GAME, "Octagion"
    summary = "Timed speed-spelling race for any number: spell the word with eight different numbers."
    challengeable = False
    simultaneous = True
    private_view_label = "My deck"
    narrate = staticmethod(show.narrate)

    # Octagion Daily: `/octagion daily play` and `/octagion daily results` (bot/games/octagion_daily.py).
    daily_group = app_commands.Group(name="daily", description="Octagion Daily: one word a day for the whole server.")

    def __init__(self, ctx):
        super().__init__(ctx)
        self.daily = OctagionDaily(ctx)
        self.extras = (self.daily,)  # what /stats, /leaderboard and /settings show of it
        ctx.controls.button(BUTTON, self._button)
        ctx.controls.select(TEAM, self._team_select)
        ctx.controls.button(BUILD, self._build_button, ack="modal")
        ctx.controls.modal(VARIANT, self.set_variant)
        ctx.controls.select(VARIATIONS, self._variations_select)
        ctx.controls.select(COUNTDOWN, self._countdown_select)
        ctx.controls.select(COMPUTERS, self._computers_select)
        ctx.controls.button(HANDICAP, self._handicap_button, ack="modal")
        ctx.controls.modal(HANDICAP_FORM, self._handicap_form)
        ctx.timers.register(COMPUTER_MOVE, self._computer_timer)
        ctx.timers.register(ROUND_END, self._round_end_timer)
        ctx.timers.register(NEXT_ROUND, self._next_round_timer)
        ctx.timers.register(LOBBY_EXPIRY, self._lobby_expiry_timer)
        ctx.outbox.register(ROUND_POST, self._build_round, self._round_visible)
        ctx.outbox.register(RESULT_POST, self._build_result)
        ctx.outbox.register(ROUND_OVER, self._build_round_over)

    # ------------------------------------------------------------ pictures and texts

    def public_picture(self, session: GameSession):
        draw = show.render_scoresheet if session.state.over else show.render_round
        return drawing(draw, session.state, session.names)

    def private_picture(self, session: GameSession, seat: int):
        return drawing(show.render_deck, session.state, session.names, seat)

    def status_text(self, session: GameSession) -> str:
        state = session.state
        heading = f"**Round {state.round} of {state.options['rounds']}**"
        if state.over:
            return "Final totals: " + show.totals_text(state, session.shown_names)
        if state.phase != "playing":
            return f"{heading} is over: the result is below."
        deadline = session.meta.round_deadline
        ends = f" · ends <t:{deadline}:R>" if deadline and session.status == "active" else ""
        return (
            f"{heading}{ends}\nBuild your variant (eight different numbers) "
            f"with **Build variant** or `/octagion play`; **Got it!** ends the round for everyone."
        )

    def playing_now(self, session: GameSession) -> bool:
        return session.state.phase == "playing"

    def components(self, session: GameSession) -> list[discord.ui.Item]:
        state = session.state
        if state.over or state.phase != "playing":
            return []
        build = SessionButton(session.id, BUILD, str(state.round), label="Build variant", style=ButtonStyle.primary)
        return [
            build,
            SessionButton(session.id, BUTTON, f"gotit:{state.round}", label="Got it!", style=ButtonStyle.success),
        ]

    # ------------------------------------------------------------ commands

    @app_commands.command(name="start", description="Open an Octagion lobby in this channel.")
    @app_commands.describe(
        rounds="Number of rounds (1-16, default 8)",
        variation="Rule variations, combined as you like: e.g. beta gamma, alpha zeta, virulent (default: none)",
        countdown="Gamma's Countdown Cards: easy (levels 1-2), standard or hard (levels 2-3)",
        seconds="Seconds per round without Alpha/Gamma (30-300, default 120)",
        treatment="Treatment Cards (wildcards) per team (0-5)",
        teams="Team mode: how many teams to choose from (2-25)",
        party="Party mode: team members split the eight numbers between them",
    )
    @app_commands.choices(
        countdown=[app_commands.Choice(name=f"{k} ({shown})", value=k) for k, shown in COUNTDOWN_HELP.items()]
    )
    async def start(
        self,
        interaction: discord.Interaction,
        rounds: app_commands.Range[int, 1, 16] | None = None,
        variation: app_commands.Range[str, 1, 80] | None = None,
        countdown: app_commands.Choice[str] | None = None,
        seconds: app_commands.Range[int, 30, 300] | None = None,
        treatment: app_commands.Range[int, 0, 5] | None = None,
        teams: app_commands.Range[int, 2, 25] | None = None,
        party: bool = False,
    ) -> None:
        await acknowledge(interaction)
        chosen = {"rounds": rounds, "seconds": seconds, "treatment": treatment, "party": party or None}
        if variation is not None:
            chosen["variation"] = _chosen_variations(variation)
        if countdown is not None:
            if "gamma" not in chosen.get("variation", []):
                raise UserError(
                    "The countdown's difficulty is for Gamma's Countdown Cards: add `gamma` (or `virulent`)."
                )
            chosen["gamma_levels"] = countdown.value
        await self.open_lobby(interaction, {key: v for key, v in chosen.items() if v is not None}, teams)

    @start.autocomplete("variation")
    async def variation_names(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Complete the last name typed: "beta g" offers "beta gamma" (refused pairs are not offered)."""
        typed = current.lower().replace(",", " ").split()
        done, last = (typed, "") if current.endswith((" ", ",")) or not typed else (typed[:-1], typed[-1])
        offers = []
        for name, shown in show.VARIATION_HELP.items():
            if name.startswith(last) and name not in done and (not done or name not in ("none", "virulent")):
                text = " ".join([*done, name])
                try:
                    normalise_variations(text)
                except ValueError:
                    continue
                offers.append(app_commands.Choice(name=f"{text} ({shown})"[:100], value=text[:100]))
        return offers[:25]

    @app_commands.command(name="play", description="Set your team's variant, e.g. S5 T7 R3 A1 N8 G2 E4 R6.")
    @app_commands.describe(cards="Cards in order: S5 T7 ...; a digit = that position's letter, * Treatment, _ empty")
    async def play(self, interaction: discord.Interaction, cards: str) -> None:
        await acknowledge(interaction)
        await self.set_variant(interaction, await self.ctx.running_id(interaction, GAME), "", {"variant": cards})

    @app_commands.command(name="gotit", description="Got it! End the round for everyone now.")
    async def gotit(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        await self.got_it(interaction.user.id, await self.ctx.running_id(interaction, GAME), None)
        await self.ctx.reply_private(interaction, "🖐 You called **Got it!** The result is posted below.")

    @daily_group.command(name="play", description="Today's word, privately, against your own 2-minute countdown.")
    @app_commands.describe(
        cards="Your answer once the puzzle is open: S5 T7 ...; a digit = that position's letter, _ empty",
        final="End your play with this answer now (a perfect one earns a time bonus)",
    )
    async def daily_play(self, interaction: discord.Interaction, cards: str | None = None, final: bool = False) -> None:
        await self.daily.play(interaction, cards, final)

    @daily_group.command(name="results", description="This server's board for a day (today's once you played it).")
    @app_commands.describe(date="today (default), yesterday, a date like 2026-01-05, or a puzzle number like #5")
    async def daily_results(self, interaction: discord.Interaction, date: str | None = None) -> None:
        await self.daily.results(interaction, date)

    # ------------------------------------------------------------ lobby

    def lobby_message(self, session: GameSession) -> tuple[str, discord.ui.View | None]:
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
            variations = _chosen_variations(" ".join(values) or "none")
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

    async def open_lobby(
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
        await self.open_lobby(interaction, options, session.meta.team_count, where=session.record.thread_id)

    async def _button(self, interaction: discord.Interaction, session_id: int, arg: str) -> None:
        """The game's one button: Join, Leave, Start (a lobby) or Got it! (the round it names)."""
        what, _, round_no = arg.partition(":")
        if what == "gotit":
            await self.got_it(interaction.user.id, session_id, int(round_no))
        elif what == "start":
            await self._start(interaction.user.id, session_id)
        else:
            await self._lobby_change(interaction.user, session_id, None, leave=what == "leave")

    async def _team_select(self, interaction: discord.Interaction, session_id: int, _: str, values: list[str]) -> None:
        team = int(values[0]) if values and values[0].isdigit() else -1
        await self._lobby_change(interaction.user, session_id, team)

    async def _lobby_change(self, user: discord.abc.User, session_id: int, team: int | None, leave: bool = False):
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

    async def _start(self, user_id: int, session_id: int) -> None:
        async with self.ctx.sessions.change(session_id) as change:
            _check_host(change, user_id, "start the game")
            players, names, options = self._seating(change.session)
            _playable(len(players), options, "The game cannot start")
            change.cancel_timers([LOBBY_EXPIRY])
            change.start(players, names, options, self.ctx.new_seed())
            change.quiet()  # the round gets its own message; the lobby's says who started
            if change.record.message_id:
                alone = len(players) == 1
                who = ", ".join(change.session.shown_names) + (". (practice game)" if alone else ".")
                started = f"## {self.title}\n▶ Started by <@{change.record.host_id}> with {who}"
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
            names.append(_computer_name(k, len(computers), level))
            keys.append(f"c{k}")
        team_of_key = {key: index for index, key in enumerate(dict.fromkeys(keys))}
        options = {key: value for key, value in meta.options.items() if key not in SEATING_OPTIONS}
        options["teams"] = [team_of_key[key] for key in keys]
        if "beta" in _variations(meta.options) and meta.options.get("handicap"):
            handicap = meta.options["handicap"]
            options["treatment_per_team"] = {team_of_key[k]: n for k, n in handicap.items() if k in team_of_key}
        return players, names, options

    # ------------------------------------------------------------ rounds

    async def _build_round(self, session: GameSession, payload: dict[str, Any]) -> Outgoing | None:
        """A round's message, with the deadline it shows; the clock starts once it is out."""
        if not _in(session, "playing", payload["round"]):
            return None  # stopped or moved on meanwhile
        deadline = self.ctx.sessions.clock() + timedelta(seconds=round_seconds(session.state))
        payload["deadline"] = session.meta.round_deadline = int(deadline.timestamp())
        return await self.ctx.table.game_picture(session)

    async def _round_visible(self, change: Change, payload: dict[str, Any], message: Any) -> None:
        if not _in(change.session, "playing", payload["round"]):
            return
        # The deadline the message shows (a message sent again after a crash shows a new one).
        change.record.message_id = message.id
        change.meta.round_deadline = payload["deadline"]
        change.cancel_timers([ROUND_END, COMPUTER_MOVE])
        deadline = datetime.fromtimestamp(payload["deadline"], tz=UTC)
        change.add_timer(ROUND_END, deadline, {"round": payload["round"]})
        self._computers_think(change, payload["round"])

    def _computers_think(self, change: Change, round_no: int) -> None:
        """Each computer team answers some seconds into the round (sooner the stronger it is)."""
        computers = computers_of(change.meta.options)
        first_seat = change.state.players - len(computers)
        seconds = round_seconds(change.state)
        for k, level in enumerate(computers):
            when = change.now + timedelta(seconds=think_seconds(level, seconds))
            change.add_timer(COMPUTER_MOVE, when, {"round": round_no, "seat": first_seat + k, "level": level})

    async def _computer_timer(self, change: Change, timer: TimerRecord) -> None:
        """A computer team sets its variant and, if it is sure of it (hard), calls Got it!."""
        seat, level = timer.payload.get("seat"), timer.payload.get("level", "medium")
        computers = range(change.state.players - len(computers_of(change.meta.options)), change.state.players)
        if _in(change.session, "playing", timer.payload.get("round")) and _only_computers_left(change.state, computers):
            for computer in computers:  # nobody is left to play against: the computers leave too
                if change.state.outcome is None and not change.state.resigned[computer]:
                    change.apply(computer, {"type": "resign"}, by=self.ctx.me)
            return
        for _ in range(2):  # its variant, then perhaps Got it!
            state = change.state
            if not _in(change.session, "playing", timer.payload.get("round")) or state.resigned[seat]:
                return
            action = choose_action(state, seat, level, change.meta.seed + state.round)
            if action == {"type": "set_variant", "cards": state.variants[team_of(state, seat)]}:
                return  # nothing better to do
            change.apply(seat, action, by=self.ctx.me, quiet=action["type"] != "got_it")
            if action["type"] == "got_it":
                self._after_round(change)

    async def _round_end_timer(self, change: Change, timer: TimerRecord) -> None:
        state = change.state
        if not _in(change.session, "playing", timer.payload.get("round")):
            return  # that round already ended (Got it!, /stop, everyone left): nothing to do
        change.apply(ENGINE.to_act(state)[0], {"type": "end_round", "reason": "timer", "round": state.round}, by=None)
        self._after_round(change)

    async def got_it(self, user_id: int, session_id: int, round_no: int | None) -> None:
        """Got it! for the round it was built for (None: the current one)."""
        async with self.ctx.sessions.change(session_id) as change:
            seat = self.ctx.sessions.check_can_act(change.session, user_id, any_time=True)
            action = {"type": "got_it"} if round_no is None else {"type": "got_it", "round": round_no}
            change.apply(seat, action, by=user_id)  # the engine refuses a seat that left and a late round
            self._after_round(change)

    def _after_round(self, change: Change) -> None:
        """In the change that ended a round: its result, then the next round's timer or the end."""
        state = change.state
        change.cancel_timers([ROUND_END])
        change.meta.round_deadline = None
        if state.over:
            # The result, then the last round's message shows its round again, and the score sheet
            # becomes the game message at the bottom of the channel.
            change.post(RESULT_POST, {"round": state.history[-1]["round"]})
            if change.record.message_id:
                change.post(ROUND_OVER, {"message_id": change.record.message_id})
            change.show(repost=True)
        elif state.phase == "between":
            next_at = change.now + timedelta(seconds=NEXT_ROUND_PAUSE)
            change.add_timer(NEXT_ROUND, next_at, {"round": state.round})
            change.post(RESULT_POST, {"round": state.round, "next_at": int(next_at.timestamp())})
            change.show()  # the round's message: "over, the result is below", without buttons

    async def _next_round_timer(self, change: Change, timer: TimerRecord) -> None:
        if not _in(change.session, "between", timer.payload.get("round")):
            return
        change.apply(ENGINE.to_act(change.state)[0], {"type": "next_round"}, by=None, quiet=True)
        change.post(ROUND_POST, {"round": change.state.round})
        await self.ctx.threads.round_notice(change, f"round {change.state.round} of {change.state.options['rounds']}")

    async def _build_result(self, session: GameSession, payload: dict[str, Any]) -> Outgoing:
        state = session.state
        record = next(r for r in state.history if r["round"] == payload["round"])
        pages = range(show.result_pages(state)) if record is state.history[-1] else range(1)
        pictures = [await self.ctx.render(show.render_round_result, state, session.names, None, None, p) for p in pages]
        text = show.result_text(state, record, session.shown_names)
        text = text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"
        if payload.get("next_at") and session.status == "active":
            # A clock time, not "in 10 seconds": the message stays true once that time has passed.
            text += f"\nRound {record['round'] + 1} follows at <t:{payload['next_at']}:T>."
        return Outgoing(text, pictures)

    async def _build_round_over(self, session: GameSession, payload: dict[str, Any]) -> Outgoing:
        state = session.state
        picture = await self.ctx.render(show.render_round, state, session.names)
        content = f"## {self.title}\nRound {state.history[-1]['round']} of {state.options['rounds']}: over."
        return Outgoing(content, [picture], edit=payload["message_id"])

    # ------------------------------------------------------------ variants

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
            placeholder = "S5 T8 (where the letters are) or 1:S5 2:T8 · 3:* a Treatment Card"
        else:
            label = f"Spell {state.words[team]}"
            default = show.variant_text(variant) if any(variant) else None
            placeholder = "S5 T7 R3 A1 N8 G2 E4 R6 · a digit, * Treatment, _ empty"
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

    async def set_variant(
        self, interaction: discord.Interaction, session_id: int, round_no: str, values: dict[str, str]
    ) -> None:
        """The variant form's answer for its round (or `/octagion play`'s, with no round): the engine
        parses the text in the change."""
        async with self.ctx.sessions.change(session_id) as change:
            seat = self.ctx.sessions.check_can_act(change.session, interaction.user.id, any_time=True)
            if round_no and str(change.state.round) != round_no:
                raise UserError(f"Round {round_no} is already over.")
            # A variant is private until the round ends: nothing public to redraw.
            text = values.get("variant", "")[:200]
            change.apply(seat, {"type": "set_variant", "text": text}, by=interaction.user.id, quiet=True)
        picture = await self.ctx.render(show.render_variant, change.state, change.session.names, seat)
        text = show.variant_sentence(change.state, seat) + " Only you can see this."
        await self.ctx.reply_private(interaction, text, picture)


__all__ = ["OctagionAdapter"]
