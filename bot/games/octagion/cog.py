"""Octagion's cog: its commands, the game message's picture, status and buttons, and the one
button of the lobby and the rounds (join, leave, start, ``gotit:<round>``). The work is in the
package's other modules (see its docstring); who may act is the platform's ``check_can_act``
(any time: everyone plays at once).
"""

from __future__ import annotations

import discord
from discord import ButtonStyle, app_commands

from bot.core.sessions import Change
from bot.core.workers import drawing
from bot.games.octagion.computers import ComputerTeams
from bot.games.octagion.daily import OctagionDaily
from bot.games.octagion.lobby import COUNTDOWN_HELP, Lobby, chosen_variations
from bot.games.octagion.names import BUILD, BUTTON, GAME, ROUND_POST
from bot.games.octagion.rounds import Rounds
from bot.games.octagion.variants import Variants
from bot.ui.adapter import GameAdapter, GameSession
from bot.ui.context import GameContext
from bot.ui.controls import SessionButton
from bot.ui.replies import UserError, acknowledge
from engines.octagion import ENGINE, normalise_variations
from render import octagion as show


class OctagionAdapter(GameAdapter):
    engine = ENGINE
    name, title = GAME, "Octagion"
    summary = "Timed speed-spelling race for any number: spell the word with eight different numbers."
    challengeable = False
    simultaneous = True
    private_view_label = "My deck"

    # Octagion Daily: `/octagion daily play` and `/octagion daily results` (bot/games/octagion/daily/).
    daily_group = app_commands.Group(name="daily", description="Octagion Daily: one word a day for the whole server.")

    def __init__(self, ctx: GameContext):
        super().__init__(ctx)
        self.lobby = Lobby(ctx, self.title, self.computer_levels)
        # The computer teams answer once a round is shown, and their last Got it! ends the round:
        # each needs the other, so the rounds reach the teams through this cog.
        self.rounds = Rounds(ctx, self.title, round_shown=lambda change, number: self.computers.think(change, number))
        self.computers = ComputerTeams(ctx, self.rounds.after_round)
        self.variants = Variants(ctx)
        self.daily = OctagionDaily(ctx)
        self.extras = (self.daily,)  # what /stats, /leaderboard and /settings show of it
        ctx.controls.button(BUTTON, self._button)

    def typed_answer(self, change: Change, user_id: int, text: str, round_no: str = "") -> None:
        self.variants.apply(change, user_id, text, round_no)  # the round's, as the variant form gives it

    # ------------------------------------------------------------ pictures and texts

    def private_picture(self, session: GameSession, seat: int):
        return drawing(show.render_deck, session.state, session.names, seat)

    def status_text(self, session: GameSession) -> str:
        state = session.state
        heading = f"**Round {state.round} of {state.options['rounds']}**"
        if state.over:
            return "Final totals: " + show.totals_text(state, session.shown_names)
        if state.phase != "playing":
            return f"{heading} is over: the result is below."
        if session.status != "active":  # stopped mid-round: nothing to build any more
            return heading
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
            chosen["variation"] = chosen_variations(variation)
        if countdown is not None:
            if "gamma" not in chosen.get("variation", []):
                raise UserError(
                    "The countdown's difficulty is for Gamma's Countdown Cards: add `gamma` (or `virulent`)."
                )
            chosen["gamma_levels"] = countdown.value
        await self.lobby.open(interaction, {key: v for key, v in chosen.items() if v is not None}, teams)

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
    @app_commands.describe(
        cards="Cards in order: S5 T7 ...; a digit alone takes its position's letter; * Treatment, _ empty"
    )
    async def play(self, interaction: discord.Interaction, cards: str) -> None:
        await acknowledge(interaction)
        await self.variants.set_variant(
            interaction, await self.ctx.running_id(interaction, GAME), "", {"variant": cards}
        )

    @app_commands.command(name="gotit", description="Got it! End the round for everyone now.")
    async def gotit(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        await self.rounds.got_it(interaction.user.id, await self.ctx.running_id(interaction, GAME), None)
        await self.ctx.reply_private(interaction, "🖐 You called **Got it!** The result is posted below.")

    @daily_group.command(name="play", description="Today's word, privately, against your own 2-minute countdown.")
    @app_commands.describe(
        cards="Your answer once the puzzle is open: S5 T7 ...; a digit alone takes its position's letter",
        final="End your play with this answer now (a perfect one earns a time bonus)",
    )
    async def daily_play(self, interaction: discord.Interaction, cards: str | None = None, final: bool = False) -> None:
        await self.daily.play(interaction, cards, final)

    @daily_group.command(name="results", description="This server's board for a day (today's once you played it).")
    @app_commands.describe(date="today (default), yesterday, a date like 2026-01-05, or a puzzle number like #5")
    async def daily_results(self, interaction: discord.Interaction, date: str | None = None) -> None:
        await self.daily.results(interaction, date)

    # ------------------------------------------------------------ the lobby

    def lobby_message(self, session: GameSession) -> tuple[str, discord.ui.View | None]:
        return self.lobby.message(session)

    def tournament_started(self, change: Change) -> None:
        """A series' race starts like a lobby's game: its first round gets a message of its own."""
        change.quiet()
        change.post(ROUND_POST, {"round": 1})

    async def rematch(self, interaction: discord.Interaction, session: GameSession) -> None:
        await self.lobby.rematch(interaction, session)

    async def _button(self, interaction: discord.Interaction, session_id: int, arg: str) -> None:
        await self.press_on_board(interaction.user, session_id, arg)

    async def press_on_board(self, user: discord.abc.User, session_id: int, key: str) -> None:
        """The game's one button, in Discord or on the Activity's board: Join, Leave, Start (a lobby)
        or Got it! (the round it names)."""
        what, _, round_no = key.partition(":")
        if what == "gotit":
            await self.rounds.got_it(user.id, session_id, int(round_no))
        elif what == "start":
            await self.lobby.start(user.id, session_id)
        else:
            await self.lobby.change_membership(user, session_id, None, leave=what == "leave")

    def board_buttons(self, session: GameSession, seat: int | None) -> list[tuple[str, str]]:
        """The lobby's Join (a lobby of teams is joined in Discord, where the team is picked), Leave
        and the host's Start, then Got it! for each player while a round runs."""
        if session.status == "lobby":
            if seat is None:
                return [] if session.meta.team_count else [("join", "Join")]
            return [("start", "Start")] if session.players[seat] == session.record.host_id else [("leave", "Leave")]
        if seat is not None and session.status == "active" and self.playing_now(session):
            return [(f"gotit:{session.state.round}", "Got it!")]
        return []


__all__ = ["OctagionAdapter"]
