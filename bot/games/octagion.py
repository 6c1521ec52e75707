"""Octagion on Discord: a lobby, timed rounds, variants by modal or command, Got it!, results.

Thin glue: the rules live in ``engines.octagion``, the pictures in ``render.octagion``.

Flow: ``/octagion start`` opens a lobby (a session with status "lobby"); the host presses
**Start**. Each round is posted as a new game message (``refresh_message(repost=True)``) and
arms a durable ``octagion_round_end`` timer. The round ends once, by the timer or by
**Got it!** (both go through ``platform.act`` under the channel lock; the engine rejects the
second), and only whoever actually ended it posts the result and arms the durable
``octagion_next_round`` timer: the next round starts by itself after ``NEXT_ROUND_PAUSE``.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import discord
from discord import app_commands

from bot.adapter import GameAdapter, GameSession
from bot.components import SessionButton, SessionSelect, view_of
from bot.platform import UserError, escape
from bot.rendering import as_file
from bot.store import TimerRecord
from engines.base import IllegalAction
from engines.octagion import ENGINE, TREATMENT
from engines.octagion import rules as octagion_rules
from render.octagion import (
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


class VariantModal(discord.ui.Modal):
    """In-memory by nature (Discord modals are answered once); the session is loaded on submit."""

    def __init__(self, adapter: OctagionAdapter, session_id: int, state: Any, seat: int):
        team = octagion_rules.team_of(state, seat)
        super().__init__(title=f"Octagion · round {state.round}", custom_id=f"octagion_variant:{session_id}")
        self.adapter, self.session_id = adapter, session_id
        self.cards = discord.ui.TextInput(
            label=f"Spell {state.words[team]}"[:45],
            custom_id="variant",
            required=False,
            max_length=80,
            default=variant_text(state.variants[team]) if any(state.variants[team]) else None,
            placeholder="S5 T7 R3 A1 N4 G2 E8 R6 · a digit, * Treatment, _ empty",
        )
        self.add_item(self.cards)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        platform = self.adapter.platform
        await platform.guard(
            interaction, self.session_id, self.adapter.set_variant(interaction, self.session_id, self.cards.value or "")
        )


class OctagionAdapter(GameAdapter):
    engine = ENGINE
    name, title = GAME, "Octagion"
    summary = "Timed speed-spelling race for any number: spell the word with eight different numbers."
    rules = RULES
    challengeable = False
    simultaneous = True
    private_view_label = "My deck"

    def __init__(self, platform):
        super().__init__(platform)
        platform.register_button("octagion_join", self._join_button)
        platform.register_button("octagion_leave", self._leave_button)
        platform.register_button("octagion_start", self._start_button)
        platform.register_select("octagion_team", self._team_select)
        platform.register_button("octagion_build", self._build_button)
        platform.register_button("octagion_gotit", self._got_it_button)
        platform.register_timer("octagion_round_end", self._round_end_timer)
        platform.register_timer("octagion_next_round", self._next_round_timer)

    # ------------------------------------------------------------ pictures and texts

    def render_public(self, session: GameSession):
        if session.state.phase == "over":
            return render_scoresheet(session.state, session.names)
        return render_round(session.state, session.names)

    def render_private(self, session: GameSession, seat: int):
        return render_deck(session.state, session.names, seat)

    def status_text(self, session: GameSession) -> str:
        state = session.state
        rounds = state.options["rounds"]
        if state.phase == "playing":
            deadline = session.record.meta.get("round_deadline")
            ends = f" · ends <t:{deadline}:R>" if deadline and session.record.status == "active" else ""
            return (
                f"**Round {state.round} of {rounds}**{ends}\nBuild your variant (eight different numbers) "
                f"with **Build variant** or `/octagion play`; **Got it!** ends the round for everyone."
            )
        if state.phase == "between":
            return f"**Round {state.round} of {rounds}** is over: the result is below."
        return "Final totals: " + self._totals_text(session)

    def describe_action(self, session: GameSession, seat: int | None, action: dict[str, Any]) -> str:
        kind = action.get("type")
        who = escape(session.names[seat]) if seat is not None and seat < len(session.names) else "Someone"
        if kind == "got_it":
            return f"🖐 **{who}** called **Got it!**"
        if kind == "end_round":
            return "⏰ Time is up!"
        if kind == "resign":
            return f"🚪 **{who}** left the game."
        return ""

    def components(self, session: GameSession) -> list[discord.ui.Item]:
        state = session.state
        if state.phase != "playing":
            return []
        round_no = str(state.round)
        return [
            SessionButton(
                session.id, "octagion_build", round_no, label="Build variant", style=discord.ButtonStyle.primary
            ),
            SessionButton(session.id, "octagion_gotit", round_no, label="Got it!", style=discord.ButtonStyle.success),
        ]

    def default_options(self) -> dict[str, Any]:
        return {}

    def _team_label(self, session: GameSession, team: int) -> str:
        return escape(team_name(session.state, session.names, team, limit=60))

    def _totals_text(self, session: GameSession) -> str:
        state = session.state
        ranked = sorted(range(state.team_count), key=lambda t: (-state.totals[t], t))
        return " · ".join(f"**{self._team_label(session, t)}** {state.totals[t]}" for t in ranked)

    # ------------------------------------------------------------ commands

    def add_commands(self, group: app_commands.Group) -> None:
        platform = self.platform

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
            session = await platform.session_for(interaction, GAME)
            await self.set_variant(interaction, session.id, cards)

        @group.command(name="gotit", description="Got it! End the round for everyone now.")
        async def gotit(interaction: discord.Interaction) -> None:
            session = await platform.session_for(interaction, GAME)
            await platform.defer(interaction, private_thinking=True)
            await self.got_it(interaction.user.id, session.id, None)
            await platform.reply_private(interaction, "🖐 You called **Got it!** The result is posted below.")

    # ------------------------------------------------------------ lobby

    def _lobby_text(self, session: GameSession) -> str:
        meta = session.record.meta
        options = meta.get("options", {})
        rounds = options.get("rounds", octagion_rules.DEFAULT_ROUNDS)
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
        team_count = meta.get("team_count")
        if team_count:
            chosen = meta.get("player_teams", {})
            for team in range(team_count):
                members = [
                    escape(name)
                    for uid, name in zip(session.players, session.names, strict=True)
                    if chosen.get(str(uid)) == team
                ]
                if members:
                    lines.append(f"**Team {team + 1}**: " + ", ".join(members))
            lines.append(
                f"{len(session.players)} player(s). Pick a team to join (or switch); the host presses **Start**."
            )
        else:
            lines.append(f"**Players ({len(session.players)})**: " + ", ".join(escape(n) for n in session.names))
            lines.append("Press **Join** to play; the host presses **Start**. Alone, it is a practice game.")
        return "\n".join(lines)

    def _lobby_view(self, session: GameSession) -> discord.ui.View:
        team_count = session.record.meta.get("team_count")
        items: list[discord.ui.Item] = []
        if team_count:
            items.append(
                SessionSelect(
                    session.id,
                    "octagion_team",
                    placeholder="Join a team…",
                    options=[
                        discord.SelectOption(label=f"Team {team + 1}", value=str(team)) for team in range(team_count)
                    ],
                )
            )
        else:
            items.append(
                SessionButton(session.id, "octagion_join", label="Join", style=discord.ButtonStyle.primary, row=1)
            )
        items.append(SessionButton(session.id, "octagion_leave", label="Leave", row=1))
        items.append(
            SessionButton(session.id, "octagion_start", label="Start", style=discord.ButtonStyle.success, row=1)
        )
        return view_of(items)

    async def open_lobby(
        self, interaction: discord.Interaction, options: dict[str, Any], team_count: int | None
    ) -> None:
        platform = self.platform
        try:  # check the options now, not when the host presses Start
            ENGINE.new_game(1, options, 0)
        except (ValueError, IllegalAction) as error:
            raise UserError(f"Those options do not work: {error}.") from None
        meta: dict[str, Any] = {"options": options}
        if team_count:
            meta.update(team_count=team_count, player_teams={str(interaction.user.id): 0})
        session = await platform.open_session(
            interaction, GAME, "lobby", players=[interaction.user.id], names=[interaction.user.display_name], meta=meta
        )
        await interaction.response.send_message(self._lobby_text(session), view=self._lobby_view(session))
        message = await interaction.original_response()
        async with platform.lock(session.record.channel_id):
            session = await platform.load(session.id)
            session.record.message_id = message.id
            await platform.save(session)

    async def _lobby(self, session_id: int) -> GameSession:
        session = await self.platform.load(session_id)
        if session.record.status != "lobby":
            raise UserError("This lobby is closed.")
        return session

    async def _lobby_change(
        self, interaction: discord.Interaction, session_id: int, team: int | None, leave: bool = False
    ) -> None:
        platform = self.platform
        record = await platform.store.get_session(session_id)
        if record is None:
            raise UserError("That game no longer exists.")
        async with platform.lock(record.channel_id):
            session = await self._lobby(session_id)
            user = interaction.user
            players, names = list(session.players), list(session.names)
            chosen = session.record.meta.setdefault("player_teams", {})
            if leave:
                if user.id not in players:
                    raise UserError("You are not in this lobby.")
                if user.id == session.record.host_id:
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
                    chosen[str(user.id)] = team
            session.record.players = players
            session.record.meta["names"] = names
            await platform.save(session)
            await interaction.response.edit_message(content=self._lobby_text(session), view=self._lobby_view(session))

    async def _join_button(self, interaction: discord.Interaction, session_id: int, _: str) -> None:
        await self._lobby_change(interaction, session_id, None)

    async def _leave_button(self, interaction: discord.Interaction, session_id: int, _: str) -> None:
        await self._lobby_change(interaction, session_id, None, leave=True)

    async def _team_select(self, interaction: discord.Interaction, session_id: int, _: str, values: list[str]) -> None:
        session = await self._lobby(session_id)
        team = int(values[0]) if values and values[0].isdigit() else -1
        if not 0 <= team < session.record.meta.get("team_count", 0):
            raise UserError("Pick one of the teams in the list.")
        await self._lobby_change(interaction, session_id, team)

    async def _start_button(self, interaction: discord.Interaction, session_id: int, _: str) -> None:
        platform = self.platform
        record = await platform.store.get_session(session_id)
        if record is None:
            raise UserError("That game no longer exists.")
        async with platform.lock(record.channel_id):
            session = await self._lobby(session_id)
            if interaction.user.id != session.record.host_id:
                raise UserError(f"Only the host (<@{session.record.host_id}>) can start the game.")
            players, names = list(session.players), list(session.names)
            options = dict(session.options)
            if session.record.meta.get("team_count"):
                chosen = session.record.meta.get("player_teams", {})
                seats = sorted(range(len(players)), key=lambda s: (chosen.get(str(players[s]), 0), s))
                players, names = [players[s] for s in seats], [names[s] for s in seats]
                options["teams"] = [chosen.get(str(p), 0) for p in players]
            try:
                ENGINE.new_game(len(players), options, 0)
            except (ValueError, IllegalAction) as error:
                raise UserError(f"The game cannot start: {error}.") from None
            who = ", ".join(escape(n) for n in names)
            await interaction.response.edit_message(
                content=f"## {self.title}\n▶ Started by <@{session.record.host_id}> with {who}."
                + (" (practice game)" if len(players) == 1 else ""),
                view=None,
            )
            await platform.start_game(session, players, names, options)
            await self._begin_round(session)

    async def rematch(self, interaction: discord.Interaction, session: GameSession) -> None:
        """A rematch is a new lobby with the same options (players choose their teams again)."""
        options = {key: value for key, value in session.options.items() if key != "teams"}
        await self.open_lobby(interaction, options, session.record.meta.get("team_count"))

    # ------------------------------------------------------------ rounds

    async def _begin_round(self, session: GameSession) -> None:
        """Reveal the round: the timer starts as the sequence is posted (the caller holds the lock)."""
        state = session.state
        deadline = discord.utils.utcnow() + timedelta(seconds=octagion_rules.round_seconds(state))
        session.record.meta["round_deadline"] = int(deadline.timestamp())
        await self.platform.save(session)
        await self.platform.scheduler.add(session.id, "octagion_round_end", deadline, {"round": state.round})
        await self.platform.refresh_message(session, repost=True)

    async def _system_act(self, session_id: int, action: dict[str, Any], refresh: bool = True) -> GameSession:
        """The bot's own action (timer), sent for a seat still in the game."""
        session = await self.platform.load(session_id)
        seats = ENGINE.to_act(session.state) if session.state is not None else []
        if session.record.status != "active" or not seats:
            raise UserError("This game is over.")
        return await self.platform.act(session_id, self.platform.bot.user.id, action, seat=seats[0], refresh=refresh)

    async def _round_end_timer(self, timer: TimerRecord) -> None:
        try:
            session = await self._system_act(
                timer.session_id, {"type": "end_round", "reason": "timer", "round": timer.payload.get("round")}
            )
        except UserError:
            return  # that round already ended (Got it!, /stop, everyone left): nothing to do
        await self._after_round(session)

    async def got_it(self, user_id: int, session_id: int, round_no: int | None) -> None:
        await self._player_session(user_id, session_id)
        action: dict[str, Any] = {"type": "got_it"}
        if round_no is not None:
            action["round"] = round_no
        session = await self.platform.act(session_id, user_id, action)
        await self.platform.scheduler.cancel(session_id, ["octagion_round_end"])
        await self._after_round(session)

    async def _got_it_button(self, interaction: discord.Interaction, session_id: int, arg: str) -> None:
        await self.platform.defer(interaction)
        await self.got_it(interaction.user.id, session_id, int(arg) if arg.isdigit() else None)

    async def _after_round(self, session: GameSession) -> None:
        """Only whoever ended the round gets here: post its result, then the next round or the end."""
        platform = self.platform
        state = session.state
        record = state.history[-1]
        between = state.phase == "between"
        next_at = None
        if between:  # armed first, so a failure below cannot stall the game
            next_at = discord.utils.utcnow() + timedelta(seconds=NEXT_ROUND_PAUSE)
            await platform.scheduler.add(session.id, "octagion_next_round", next_at, {"round": state.round})
        pictures = [
            await platform.renderer.render(render_round_result, state, session.names, None, None, page)
            for page in range(result_pages(state))
        ]
        text = self._result_text(session, record)
        if next_at is not None:
            text += f"\nRound {state.round + 1} starts <t:{int(next_at.timestamp())}:R>."
        channel = platform.bot.get_partial_messageable(session.record.channel_id)
        for start in range(0, len(pictures), 10):  # at most 10 files per message
            await channel.send(text if start == 0 else "", files=[as_file(p) for p in pictures[start : start + 10]])
        if between:
            return
        # The game is over: the score sheet becomes the game message, at the bottom of the channel,
        # and the last round's message shows its round again.
        old_message = session.record.message_id
        async with platform.lock(session.record.channel_id):
            session = await platform.load(session.id)
            await platform.refresh_message(session, repost=True)
        if old_message:
            picture = await platform.renderer.render(render_round, state, session.names)
            try:
                await channel.get_partial_message(old_message).edit(
                    content=f"## {self.title}\nRound {record['round']} of {state.options['rounds']}: over.",
                    attachments=[as_file(picture)],
                    view=None,
                )
            except discord.HTTPException:
                pass  # cosmetic only

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

    async def _next_round_timer(self, timer: TimerRecord) -> None:
        platform = self.platform
        record = await platform.store.get_session(timer.session_id)
        if record is None:
            return
        session = await platform.load(timer.session_id)
        state = session.state
        if session.record.status != "active" or state.phase != "between" or state.round != timer.payload.get("round"):
            return
        # Not redrawn in place: the previous round's message keeps its word; the new round gets
        # a new message, posted under the lock so nothing slips in between.
        session = await self._system_act(session.id, {"type": "next_round"}, refresh=False)
        async with platform.lock(record.channel_id):
            session = await platform.load(session.id)
            await self._begin_round(session)

    # ------------------------------------------------------------ variants

    async def _player_session(self, user_id: int, session_id: int) -> tuple[GameSession, int]:
        session = await self.platform.load(session_id)
        if session.record.status != "active":
            raise UserError(
                "This game is over." if session.record.status != "lobby" else "This game has not started yet."
            )
        seat = session.seat_of(user_id)
        if seat is None:
            raise UserError("You are not playing in this game.")
        if session.state.resigned[seat]:
            raise UserError("You left this game.")
        return session, seat

    async def _build_button(self, interaction: discord.Interaction, session_id: int, arg: str) -> None:
        session, seat = await self._player_session(interaction.user.id, session_id)
        state = session.state
        if state.phase != "playing":
            raise UserError("The round is over; wait for the next one.")
        await interaction.response.send_modal(VariantModal(self, session_id, state, seat))

    async def set_variant(self, interaction: discord.Interaction, session_id: int, text: str) -> None:
        """A variant typed by a player (modal or /octagion play): the engine parses it under the lock."""
        platform = self.platform
        await platform.defer(interaction, private_thinking=True)
        await self._player_session(interaction.user.id, session_id)
        # A variant is private until the round ends: nothing public to redraw.
        session = await platform.act(
            session_id, interaction.user.id, {"type": "set_variant", "text": text}, refresh=False
        )
        seat = session.seat_of(interaction.user.id)
        state = session.state
        team = octagion_rules.team_of(state, seat)
        cells = state.variants[team]
        placed = sum(cell is not None for cell in cells)
        treatment = cells.count(TREATMENT)
        picture = await platform.renderer.render(render_variant, state, session.names, seat)
        note = f" ({treatment} Treatment Card{'s' if treatment != 1 else ''})" if treatment else ""
        await platform.reply_private(
            interaction,
            f"Your team's variant for **{state.words[team]}**: `{variant_text(cells)}` "
            f"({placed} of 8 placed{note}). Only you can see this.",
            picture,
        )


__all__ = ["OctagionAdapter"]
