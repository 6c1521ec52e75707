"""Octagion on Discord: a lobby, timed rounds, variants by form or command, Got it!, results.

Thin glue: the rules live in ``engines.octagion``, the pictures in ``render.octagion``.

Flow: ``/octagion start`` opens a lobby (a session with status "lobby", closed after
``LOBBY_IDLE_MINUTES`` without activity); the host presses **Start**. Each round is posted
as a new game message through the outbox, and its clock starts only once that message is
out (``octagion_round_end`` is armed then, with the deadline the message shows). The round
ends once, by the timer or by **Got it!** (one session change each; the engine refuses the
second), and that same change writes the result message and the ``octagion_next_round``
timer, so nothing can be lost between them.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import discord
from discord import app_commands

from bot.adapter import GameAdapter, GameSession
from bot.components import SessionButton, SessionSelect, session_modal, view_of
from bot.outbox import Outgoing
from bot.replies import BUSY_TEXT, UserError, acknowledge
from bot.sessions import Change, SessionMeta
from bot.store import TimerRecord
from bot.table import EDIT_TEXT
from engines.base import IllegalAction
from engines.octagion import DEFAULT_ROUNDS, ENGINE, TREATMENT, round_seconds, team_of
from render.octagion import (
    narrate,
    render_deck,
    render_round,
    render_round_result,
    render_scoresheet,
    render_variant,
    result_pages,
    team_name,
)

GAME = "octagion"
NEXT_ROUND_PAUSE = 15  # seconds between a round's result and the next round
MAX_LOBBY = ENGINE.max_players
MAX_TEXT = 1900
LOBBY_IDLE_MINUTES = 15
ROUND_END, NEXT_ROUND, LOBBY_EXPIRY = "octagion_round_end", "octagion_next_round", "octagion_lobby_expiry"
ROUND_POST, RESULT_POST, ROUND_OVER = "octagion_round", "octagion_result", "octagion_round_over"
VARIATION_CHOICES = ["none", "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "virulent"]
VARIATION_HELP = {
    "none": "basic rules",
    "alpha": "rounds get 5 s shorter",
    "beta": "Treatment Cards set per team",
    "gamma": "Countdown Cards set the time",
    "delta": "Countdown Card picks the word",
    "epsilon": "a different word per team",
    "zeta": "words need not be spellable",
    "virulent": "Beta + Gamma + Delta + Epsilon",
}

RULES = """**Octagion** is a speed-spelling race. Every team (one player, or several in team mode) has its own \
deck of **48 cards**, each a letter and a number 1-8 (six cards per number).

**A round**: an 8-letter word, the *sequence*, is revealed as the clock starts (2:00 by default). \
Build your *variant*: one card per position spelling the sequence, using **eight different numbers**. \
A blue **Treatment Card** (`*`) is a wildcard with no number; each one can be used once per game.

**Scoring**: start at 8 points and lose 1 for each empty position, wrong letter, or number already \
used further left. **Got it!** ends the round for everyone at once: +2 to the caller's team if its \
variant is perfect, -2 otherwise. After each round you see every variant with its penalties and one \
solution. The highest total after the last round (8 by default) wins; ties share the win.

**Variations**: **Alpha** rounds get 5 s shorter each time · **Beta** Treatment Cards per team · \
**Gamma** Countdown Cards set each round's time · **Delta** the Countdown Card picks the word · \
**Epsilon** every team gets its own word · **Zeta** words may need Treatment Cards · \
**Virulent** = Beta + Gamma + Delta + Epsilon.

**Commands**
`/octagion start [rounds] [variation] [seconds] [treatment] [teams] [party]`: open a lobby; \
players **Join** (or pick a team), the host presses **Start**. Alone, it is a practice game.
**Build variant** (button): type your variant, e.g. `S5 T7 R3 A1 N4 G2 E8 R6`; a bare digit \
means that position's letter (`5 7 3 ...`), `*` a Treatment Card, `_` an empty position.
`/octagion play cards:S5 T7 R3 A1 N4 G2 E8 R6`: the same from the command line.
**My deck** (button): your team's 48 cards. **Got it!** (button) or `/octagion gotit`: end the round.
`/octagion resign` leaves the game; `/stop` (host or moderators) ends it. \
The next round starts by itself a few seconds after each result."""


def variant_text(cells: list[str | None]) -> str:
    """A variant as a player would type it: "S5 T7 _ *"."""
    return " ".join("_" if cell is None else cell for cell in cells)


def _seconds_text(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


class OctagionAdapter(GameAdapter):
    engine = ENGINE
    name, title = GAME, "Octagion"
    summary = "Timed speed-spelling race for any number: spell the word with eight different numbers."
    rules = RULES
    challengeable = False
    simultaneous = True
    private_view_label = "My deck"
    narrate = staticmethod(narrate)

    def __init__(self, ctx):
        super().__init__(ctx)
        controls = ctx.controls
        controls.button("octagion_join", self._join_button)
        controls.button("octagion_leave", self._leave_button)
        controls.button("octagion_start", self._start_button)
        controls.select("octagion_team", self._team_select)
        controls.button("octagion_build", self._build_button, ack="modal")
        controls.modal("octagion_variant", self._variant_submitted)
        controls.button("octagion_gotit", self._got_it_button)
        ctx.timers.register(ROUND_END, self._round_end_timer)
        ctx.timers.register(NEXT_ROUND, self._next_round_timer)
        ctx.timers.register(LOBBY_EXPIRY, self._lobby_expiry_timer)
        ctx.outbox.register(ROUND_POST, self._build_round, self._round_visible)
        ctx.outbox.register(RESULT_POST, self._build_result)
        ctx.outbox.register(ROUND_OVER, self._build_round_over)

    # ------------------------------------------------------------ pictures and texts

    def render_public(self, session: GameSession):
        if session.state.over:
            return render_scoresheet(session.state, session.names)
        return render_round(session.state, session.names)

    def render_private(self, session: GameSession, seat: int):
        return render_deck(session.state, session.names, seat)

    def status_text(self, session: GameSession) -> str:
        state = session.state
        rounds = state.options["rounds"]
        if state.over:
            return "Final totals: " + self._totals_text(session)
        if state.phase == "playing":
            deadline = session.meta.round_deadline
            ends = f" · ends <t:{deadline}:R>" if deadline and session.status == "active" else ""
            return (
                f"**Round {state.round} of {rounds}**{ends}\nBuild your variant (eight different numbers) "
                f"with **Build variant** or `/octagion play`; **Got it!** ends the round for everyone."
            )
        return f"**Round {state.round} of {rounds}** is over: the result is below."

    def components(self, session: GameSession) -> list[discord.ui.Item]:
        state = session.state
        if state.over or state.phase != "playing":
            return []
        round_no = str(state.round)
        return [
            SessionButton(
                session.id, "octagion_build", round_no, label="Build variant", style=discord.ButtonStyle.primary
            ),
            SessionButton(session.id, "octagion_gotit", round_no, label="Got it!", style=discord.ButtonStyle.success),
        ]

    def _team_label(self, session: GameSession, team: int) -> str:
        # The names are trimmed and escaped already: never cut one.
        return team_name(session.state, session.shown_names, team, limit=MAX_TEXT)

    def _totals_text(self, session: GameSession) -> str:
        state = session.state
        ranked = sorted(range(state.team_count), key=lambda t: (-state.totals[t], t))
        return " · ".join(f"**{self._team_label(session, t)}** {state.totals[t]}" for t in ranked)

    # ------------------------------------------------------------ commands

    def add_commands(self, group: app_commands.Group) -> None:
        ctx = self.ctx

        @group.command(name="start", description="Open an Octagion lobby in this channel.")
        @app_commands.describe(
            rounds="Number of rounds (1-16, default 8)",
            variation="Rule variation (default: none)",
            seconds="Seconds per round without Alpha/Gamma (30-300, default 120)",
            treatment="Treatment Cards (wildcards) per team (0-5)",
            teams="Team mode: how many teams to choose from (2-25)",
            party="Party mode: team members split the eight numbers between them",
        )
        @app_commands.choices(
            variation=[app_commands.Choice(name=f"{v} ({VARIATION_HELP[v]})", value=v) for v in VARIATION_CHOICES]
        )
        async def start(
            interaction: discord.Interaction,
            rounds: app_commands.Range[int, 1, 16] | None = None,
            variation: app_commands.Choice[str] | None = None,
            seconds: app_commands.Range[int, 30, 300] | None = None,
            treatment: app_commands.Range[int, 0, 5] | None = None,
            teams: app_commands.Range[int, 2, 25] | None = None,
            party: bool = False,
        ) -> None:
            await acknowledge(interaction)
            options: dict[str, Any] = {
                "rounds": rounds,
                "variation": variation.value if variation else None,
                "seconds": seconds,
                "treatment": treatment,
                "party": party or None,
            }
            options = {key: value for key, value in options.items() if value is not None}
            await self.open_lobby(interaction, options, teams)

        @group.command(name="play", description="Set your team's variant, e.g. S5 T7 R3 A1 N4 G2 E8 R6.")
        @app_commands.describe(
            cards="Cards in order: S5 T7 ...; a digit = that position's letter, * Treatment, _ empty"
        )
        async def play(interaction: discord.Interaction, cards: str) -> None:
            await acknowledge(interaction)
            await self.set_variant(interaction, await ctx.running_id(interaction, GAME), cards, None)

        @group.command(name="gotit", description="Got it! End the round for everyone now.")
        async def gotit(interaction: discord.Interaction) -> None:
            await acknowledge(interaction)
            await self.got_it(interaction.user.id, await ctx.running_id(interaction, GAME), None)
            await ctx.reply_private(interaction, "🖐 You called **Got it!** The result is posted below.")

    # ------------------------------------------------------------ lobby

    def _lobby_text(self, session: GameSession) -> str:
        meta = session.meta
        options = meta.options
        rounds = options.get("rounds", DEFAULT_ROUNDS)
        parts = [f"{rounds} round{'s' if rounds != 1 else ''}"]
        variation = options.get("variation")
        parts.append(f"variation {variation}" if variation and variation != "none" else "basic rules")
        if "seconds" in options:
            parts.append(f"{_seconds_text(options['seconds'])} per round")
        if "treatment" in options:
            parts.append(f"{options['treatment']} Treatment Cards per team")
        if options.get("party"):
            parts.append("party mode")
        lines = [f"## {self.title} lobby", f"Host: <@{session.record.host_id}> · " + ", ".join(parts)]
        if meta.team_count:
            for team in range(meta.team_count):
                members = [
                    name
                    for uid, name in zip(session.players, session.shown_names, strict=True)
                    if meta.player_teams.get(str(uid)) == team
                ]
                if members:
                    lines.append(f"**Team {team + 1}**: " + ", ".join(members))
            lines.append(
                f"{len(session.players)} player(s). Pick a team to join (or switch); the host presses **Start**."
            )
        else:
            lines.append(f"**Players ({len(session.players)})**: " + ", ".join(session.shown_names))
            lines.append("Press **Join** to play; the host presses **Start**. Alone, it is a practice game.")
        return "\n".join(lines)

    def lobby_message(self, session: GameSession) -> tuple[str, discord.ui.View | None]:
        items: list[discord.ui.Item] = []
        if session.meta.team_count:
            options = [
                discord.SelectOption(label=f"Team {team + 1}", value=str(team))
                for team in range(session.meta.team_count)
            ]
            items.append(SessionSelect(session.id, "octagion_team", placeholder="Join a team…", options=options))
        else:
            items.append(
                SessionButton(session.id, "octagion_join", label="Join", style=discord.ButtonStyle.primary, row=1)
            )
        items.append(SessionButton(session.id, "octagion_leave", label="Leave", row=1))
        items.append(
            SessionButton(session.id, "octagion_start", label="Start", style=discord.ButtonStyle.success, row=1)
        )
        return self._lobby_text(session), view_of(items)

    @staticmethod
    def _keep_lobby_open(change: Change) -> None:
        """Any activity restarts the lobby's idle clock."""
        change.cancel_timers([LOBBY_EXPIRY])
        change.add_timer(LOBBY_EXPIRY, change.now + timedelta(minutes=LOBBY_IDLE_MINUTES))
        change.show()

    async def open_lobby(
        self, interaction: discord.Interaction, options: dict[str, Any], team_count: int | None
    ) -> None:
        try:  # check the options now, not when the host presses Start
            ENGINE.new_game(1, options, 0)
        except (ValueError, IllegalAction) as error:
            raise UserError(f"Those options do not work: {error}.") from None
        meta = SessionMeta(names=[interaction.user.display_name], options=options)
        if team_count:
            meta.team_count = team_count
            meta.player_teams = {str(interaction.user.id): 0}
        async with self.ctx.sessions.open(
            game=GAME,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            host_id=interaction.user.id,
            players=[interaction.user.id],
            status="lobby",
            meta=meta,
            busy_text=self.ctx.busy_text,
        ) as change:
            self._keep_lobby_open(change)
        await self.ctx.first_message_or_close(interaction, change)
        await self.ctx.reply_private(interaction, "The lobby is open below; press **Start** when everyone has joined.")

    @staticmethod
    def _lobby_of(change: Change) -> None:
        if change.record.status != "lobby":
            raise UserError("This lobby is closed.")

    async def _lobby_change(
        self, interaction: discord.Interaction, session_id: int, team: int | None, leave: bool = False
    ) -> None:
        async with self.ctx.sessions.change(session_id) as change:
            self._lobby_of(change)
            user = interaction.user
            players, names = change.record.players, change.meta.names
            chosen = change.meta.player_teams
            if leave:
                if user.id not in players:
                    raise UserError("You are not in this lobby.")
                if user.id == change.record.host_id:
                    raise UserError("You are the host: press **Start**, or close the lobby with `/stop`.")
                index = players.index(user.id)
                del players[index], names[index]
                chosen.pop(str(user.id), None)
            else:
                if user.id in players and team is None:
                    raise UserError("You are already in this lobby.")
                if user.id not in players:
                    if user.bot:
                        raise UserError("Bots cannot play Octagion.")
                    if len(players) >= MAX_LOBBY:
                        raise UserError(f"The lobby is full ({MAX_LOBBY} players).")
                    players.append(user.id)
                    names.append(user.display_name)
                if team is not None:
                    if not 0 <= team < (change.meta.team_count or 0):
                        raise UserError("Pick one of the teams in the list.")
                    chosen[str(user.id)] = team
            self._keep_lobby_open(change)

    async def _join_button(self, interaction: discord.Interaction, session_id: int, _: str) -> None:
        await self._lobby_change(interaction, session_id, None)

    async def _leave_button(self, interaction: discord.Interaction, session_id: int, _: str) -> None:
        await self._lobby_change(interaction, session_id, None, leave=True)

    async def _team_select(self, interaction: discord.Interaction, session_id: int, _: str, values: list[str]) -> None:
        team = int(values[0]) if values and values[0].isdigit() else -1
        await self._lobby_change(interaction, session_id, team)

    async def _lobby_expiry_timer(self, change: Change, _: TimerRecord) -> None:
        if change.record.status == "lobby":
            change.end(
                "expired", f"⌛ The {self.title} lobby closed after {LOBBY_IDLE_MINUTES} minutes without a start."
            )

    async def _start_button(self, interaction: discord.Interaction, session_id: int, _: str) -> None:
        async with self.ctx.sessions.change(session_id) as change:
            self._lobby_of(change)
            host = change.record.host_id
            if interaction.user.id != host:
                raise UserError(f"Only the host (<@{host}>) can start the game.")
            players, names = list(change.record.players), list(change.meta.names)
            options = dict(change.meta.options)
            if change.meta.team_count:
                chosen = change.meta.player_teams
                seats = sorted(range(len(players)), key=lambda s: (chosen.get(str(players[s]), 0), s))
                players, names = [players[s] for s in seats], [names[s] for s in seats]
                options["teams"] = [chosen.get(str(p), 0) for p in players]
            try:
                ENGINE.new_game(len(players), options, 0)
            except (ValueError, IllegalAction) as error:
                raise UserError(f"The game cannot start: {error}.") from None
            lobby_message = change.record.message_id
            change.cancel_timers([LOBBY_EXPIRY])
            change.start(players, names, options, self.ctx.new_seed())
            change.quiet()  # the round gets its own message; the lobby's says who started
            who = ", ".join(change.session.shown_names)
            practice = " (practice game)" if len(players) == 1 else ""
            if lobby_message:
                started = f"## {self.title}\n▶ Started by <@{host}> with {who}.{practice}"
                change.post(EDIT_TEXT, {"message_id": lobby_message, "content": started})
            change.post(ROUND_POST, {"round": 1})

    async def rematch(self, interaction: discord.Interaction, session: GameSession) -> None:
        """A rematch is a new lobby with the same options (players choose their teams again)."""
        options = {key: value for key, value in session.options.items() if key != "teams"}
        await self.open_lobby(interaction, options, session.meta.team_count)

    # ------------------------------------------------------------ rounds

    async def _build_round(self, session: GameSession, payload: dict[str, Any]) -> Outgoing | None:
        """A round's message, with the deadline it shows; the clock starts once it is out."""
        state = session.state
        if session.status != "active" or state.phase != "playing" or state.round != payload["round"]:
            return None  # stopped or moved on meanwhile
        deadline = self.ctx.sessions.clock() + timedelta(seconds=round_seconds(state))
        payload["deadline"] = int(deadline.timestamp())
        session.meta.round_deadline = payload["deadline"]
        return await self.ctx.table.game_picture(session)

    @staticmethod
    async def _round_visible(change: Change, payload: dict[str, Any], message: Any) -> None:
        state = change.state
        if change.record.status != "active" or state.phase != "playing" or state.round != payload["round"]:
            return
        # The deadline the message shows (a message sent again after a crash shows a new one).
        change.record.message_id = message.id
        change.meta.round_deadline = payload["deadline"]
        change.cancel_timers([ROUND_END])
        deadline = datetime.fromtimestamp(payload["deadline"], tz=UTC)
        change.add_timer(ROUND_END, deadline, {"round": state.round})

    async def _round_end_timer(self, change: Change, timer: TimerRecord) -> None:
        state = change.state
        if change.record.status != "active" or state.phase != "playing" or state.round != timer.payload.get("round"):
            return  # that round already ended (Got it!, /stop, everyone left): nothing to do
        seat = ENGINE.to_act(state)[0]
        change.apply(seat, {"type": "end_round", "reason": "timer", "round": state.round}, by=None)
        self._after_round(change)

    async def got_it(self, user_id: int, session_id: int, round_no: int | None) -> None:
        async with self.ctx.sessions.change(session_id) as change:
            seat = self._seat_in_game(change.session, user_id)
            action: dict[str, Any] = {"type": "got_it"}
            if round_no is not None:
                action["round"] = round_no
            change.apply(seat, action, by=user_id)
            self._after_round(change)

    async def _got_it_button(self, interaction: discord.Interaction, session_id: int, arg: str) -> None:
        await self.got_it(interaction.user.id, session_id, int(arg) if arg.isdigit() else None)

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
            return
        if state.phase == "between":
            next_at = change.now + timedelta(seconds=NEXT_ROUND_PAUSE)
            change.add_timer(NEXT_ROUND, next_at, {"round": state.round})
            change.post(RESULT_POST, {"round": state.round, "next_at": int(next_at.timestamp())})
            change.show()  # the round's message: "over, the result is below", without buttons

    async def _next_round_timer(self, change: Change, timer: TimerRecord) -> None:
        state = change.state
        if change.record.status != "active" or state.phase != "between" or state.round != timer.payload.get("round"):
            return
        seat = ENGINE.to_act(state)[0]
        change.apply(seat, {"type": "next_round"}, by=None, quiet=True)
        change.post(ROUND_POST, {"round": change.state.round})

    async def _build_result(self, session: GameSession, payload: dict[str, Any]) -> Outgoing:
        state = session.state
        record = next(r for r in state.history if r["round"] == payload["round"])
        pages = range(result_pages(state)) if record is state.history[-1] else range(1)
        pictures = [await self.ctx.render(render_round_result, state, session.names, None, None, p) for p in pages]
        text = self._result_text(session, record)
        if payload.get("next_at") and session.status == "active":
            text += f"\nRound {record['round'] + 1} starts <t:{payload['next_at']}:R>."
        return Outgoing(text, pictures)

    async def _build_round_over(self, session: GameSession, payload: dict[str, Any]) -> Outgoing:
        state = session.state
        picture = await self.ctx.render(render_round, state, session.names)
        content = f"## {self.title}\nRound {state.history[-1]['round']} of {state.options['rounds']}: over."
        return Outgoing(content, [picture], edit=payload["message_id"])

    def _result_text(self, session: GameSession, record: dict[str, Any]) -> str:
        state = session.state
        lines = [f"### Round {record['round']} of {state.options['rounds']}: result"]
        if record["got_it_team"] is not None:
            result = record["results"][record["got_it_team"]]
            verdict = "perfect, +2" if result and result["got_it_points"] > 0 else "not perfect, -2"
            lines.append(f"🖐 **{self._team_label(session, record['got_it_team'])}** called Got it! ({verdict})")
        else:
            lines.append(f"⏰ Time is up ({_seconds_text(record['seconds'])}).")
        ranked = sorted(
            (t for t, r in enumerate(record["results"]) if r is not None),
            key=lambda t: (-record["results"][t]["score"], t),
        )
        for team in ranked:
            result = record["results"][team]
            penalties = result["penalties"]
            detail = "no penalty" if penalties == 0 else f"{penalties} penalt{'y' if penalties == 1 else 'ies'}"
            lines.append(
                f"**{self._team_label(session, team)}**: {result['score']} pts ({detail}) · total {state.totals[team]}"
            )
        for word, info in record["solutions"].items():
            if info["solution"]:
                count = info["count"]
                lines.append(
                    f"One solution for **{word}**: `{variant_text(info['solution'])}` "
                    f"({count} solution{'s' if count != 1 else ''})"
                )
            else:
                lines.append(f"**{word}** has no solution without Treatment Cards, e.g. `{variant_text(info['best'])}`")
        text = "\n".join(lines)
        return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"

    # ------------------------------------------------------------ variants

    def _seat_in_game(self, session: GameSession, user_id: int) -> int:
        seat = self.ctx.sessions.check_can_act(session, user_id, any_time=True)
        if session.state.resigned[seat]:
            raise UserError("You left this game.")
        return seat

    async def _build_button(self, interaction: discord.Interaction, session_id: int, arg: str) -> None:
        """A form must be the first answer, so this is the one handler that reads before answering:
        with a short limit, so a locked database gets a clear "try again" within Discord's window."""
        try:
            session = await asyncio.wait_for(self.ctx.sessions.load(session_id), timeout=2)
        except TimeoutError:
            raise UserError(BUSY_TEXT) from None
        seat = self._seat_in_game(session, interaction.user.id)
        state = session.state
        if state.phase != "playing" or str(state.round) != arg:
            raise UserError("The round is over; wait for the next one.")
        team = team_of(state, seat)
        cards = discord.ui.TextInput(
            label=f"Spell {state.words[team]}"[:45],
            custom_id="variant",
            required=False,
            max_length=80,
            default=variant_text(state.variants[team]) if any(state.variants[team]) else None,
            placeholder="S5 T7 R3 A1 N4 G2 E8 R6 · a digit, * Treatment, _ empty",
        )
        title = f"Octagion · round {state.round}"
        await interaction.response.send_modal(session_modal(session_id, "octagion_variant", arg, title, [cards]))

    async def _variant_submitted(
        self, interaction: discord.Interaction, session_id: int, arg: str, values: dict[str, str]
    ) -> None:
        await self.set_variant(interaction, session_id, values.get("variant", ""), int(arg) if arg.isdigit() else None)

    async def set_variant(
        self, interaction: discord.Interaction, session_id: int, text: str, round_no: int | None
    ) -> None:
        """A variant typed by a player (form or /octagion play): the engine parses it in the change."""
        async with self.ctx.sessions.change(session_id) as change:
            seat = self._seat_in_game(change.session, interaction.user.id)
            if round_no is not None and change.state.round != round_no:
                raise UserError(f"Round {round_no} is already over.")
            # A variant is private until the round ends: nothing public to redraw.
            change.apply(seat, {"type": "set_variant", "text": text[:200]}, by=interaction.user.id, quiet=True)
        session = change.session
        state = session.state
        team = team_of(state, seat)
        cells = state.variants[team]
        placed = sum(cell is not None for cell in cells)
        treatment = cells.count(TREATMENT)
        picture = await self.ctx.render(render_variant, state, session.names, seat)
        note = f" ({treatment} Treatment Card{'s' if treatment != 1 else ''})" if treatment else ""
        await self.ctx.reply_private(
            interaction,
            f"Your team's variant for **{state.words[team]}**: `{variant_text(cells)}` "
            f"({placed} of 8 placed{note}). Only you can see this.",
            picture,
        )


__all__ = ["OctagionAdapter"]
