"""`/puzzle` (a cog): a position cut from a real game where one move wins clearly, played privately
with the game's own menu, a puzzle rating per member and game, and a daily puzzle per game.

A puzzle lives nowhere but in the shipped set (engines/puzzles): every click rebuilds its position
through the engine, as /learn does its lessons, so a puzzle is private practice that is never a
stored session (no game rating, nothing in /history, no tournament, nothing in the channel). The
controls are the game's own menu, narrowed by the platform's one narrowing; each custom id carries
the game, the puzzle, the mode (rated or a day's daily puzzle) and the choices so far, so a puzzle
survives a restart.

Rated: a member gets the puzzle nearest their rating that they have not played; the first move
decides it, a Glicko-2 update moves their puzzle rating once per puzzle (engines/puzzles/rating.py).
A wrong move is shown what it allows: the hard search's reply, computed in the thinking workers.

Daily: one puzzle per game and UTC day, the same for everyone (engines.puzzles.daily), played once
per member and server, unrated. Its answer is shown only to those who played it until the day is
over; then anyone asking for the daily puzzle reads the day before's answer. A share line without
the answer, and streaks of days played and solved (the Octagion Daily's streaks).
"""

from __future__ import annotations

import hashlib
from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

import engines.puzzles as puzzles
from bot.core.attachments import as_file
from bot.core.change import GameSession
from bot.core.store import Store
from bot.core.workers import Drawing
from bot.features.game_choices import offer_choices
from bot.features.learn.cog import Learn
from bot.features.practice import NO_SESSION, practice_table
from bot.features.puzzles import store
from bot.ui.controls import SessionButton, SessionSelect, view_of
from bot.ui.menu_steps import ActionMenu, Narrowing
from bot.ui.replies import UserError, acknowledge, reply_private
from engines.puzzles import Puzzle, Rating, puzzle_day, puzzle_number, update
from engines.registry import engine as registered_engine
from render.lessons import lesson_picture
from render.registry import pictures
from render.wording import plural

if TYPE_CHECKING:
    from bot.core.sessions import Sessions
    from bot.core.store import Store
    from bot.core.workers import WorkerPool
    from bot.ui.adapter import GameAdapter
    from bot.ui.controls import Controls
    from bot.ui.menus import Menus

OPEN = "puzzle_open"  # the puzzle's copy of the game's menu button: opens the menu privately
CHOOSE = "puzzle_menu"  # the menu's selects
NEXT = "puzzle_next"  # after a rated puzzle: the next one
SEPARATOR = "|"
PAGE = SEPARATOR + "page"
RATED = "r"
OPTIONS_LIMIT = 25
GONE = "This puzzle is no longer available: type `/puzzle` for another."


def daily_mode(day: date) -> str:
    return "d" + day.strftime("%Y%m%d")


def mode_day(mode: str) -> date | None:
    return datetime.strptime(mode[1:], "%Y%m%d").replace(tzinfo=UTC).date() if mode.startswith("d") else None


class Puzzles(commands.Cog):
    def __init__(
        self,
        *,
        store: Store,
        sessions: Sessions,
        controls: Controls,
        menus: Menus,
        pictures: WorkerPool,
        thinking: WorkerPool,
        games: dict[str, GameAdapter],
    ):
        self.store, self.sessions, self.menus = store, sessions, menus
        self.pictures, self.thinking, self.adapters = pictures, thinking, games
        self.games = [game for game in puzzles.GAMES if game in games and puzzles.load(game)]  # with a puzzle set
        titles = [app_commands.Choice(name=games[game].title, value=game) for game in self.games]
        offer_choices(self.puzzle_command, game=titles)
        controls.button(OPEN, self._open, ack="private")
        controls.select(CHOOSE, self._choose)
        controls.button(NEXT, self._next, ack="private")

    def now(self) -> datetime:
        return self.sessions.clock()

    @app_commands.command(name="puzzle", description="A puzzle cut from a real game: find the move that wins.")
    @app_commands.describe(
        game="Which game", daily="Today's puzzle of the game, the same for everyone (default: a rated puzzle)"
    )
    async def puzzle_command(
        self, interaction: discord.Interaction, game: app_commands.Choice[str], daily: bool = False
    ) -> None:
        await acknowledge(interaction)
        if game.value not in self.games:
            raise UserError(f"I have no puzzles for {game.name}: pick one of the games `/puzzle` offers.")
        if daily:
            await self._daily(interaction, game.value)
            return
        text, picture, view = await self._page(interaction, *await self._rated_pick(interaction.user.id, game.value))
        await reply_private(interaction, text, picture, view)

    # ------------------------------------------------------------ picking and showing
    async def _rated_pick(self, user_id: int, game: str) -> tuple[Puzzle, str]:
        """The puzzle nearest the member's rating among those they have not played."""
        rating, _played, _solved = await store.rating(self.store, user_id, game)
        done = await store.played(self.store, user_id, game)
        left = [item for item in puzzles.load(game) if item.id not in done]
        if not left:
            raise UserError(f"You have played every {self.title(game)} puzzle I have: more come with new sets.")

        def nearness(item: Puzzle) -> tuple[float, str]:
            return abs(item.rating - rating.rating), hashlib.sha1(f"{user_id}:{item.id}".encode()).hexdigest()

        return min(left, key=nearness), RATED

    def title(self, game: str) -> str:
        return self.adapters[game].title

    def _menu(self, game: str) -> ActionMenu:
        return self.adapters[game].menus[0]

    async def _page(
        self, interaction: discord.Interaction, item: Puzzle, mode: str
    ) -> tuple[str, Any, discord.ui.View]:
        """The puzzle: its position, whose move, what to find, and the game's menu button."""
        title, day = self.title(item.game), mode_day(mode)
        if day is None:
            rating, played, solved = await store.rating(self.store, interaction.user.id, item.game)
            heading = f"## {title} puzzle `{item.id}` · rated {item.rating}"
            footer = f"Your puzzle rating: **{rating.shown()}** ({solved} solved of {plural(played, 'puzzle')})."
        else:
            heading = f"## {title} daily puzzle #{puzzle_number(day)}"
            footer = "The same puzzle for everyone today: its answer stays private until tomorrow."
        table = self._table(interaction, item)
        task = (
            "Your move (your name is on your side of the board). One move wins clearly; every other "
            f"loses the advantage. Find it with **{self._menu(item.game).button}**: your first move decides."
        )
        text = f"{heading}\n{task}\n{footer}"
        picture = await self.pictures.draw(Drawing(lesson_picture, (item.game, item.state(), table.names, ())))
        arg = SEPARATOR.join((item.game, item.id, mode))
        button = SessionButton(
            NO_SESSION, OPEN, arg, label=self._menu(item.game).button, style=discord.ButtonStyle.primary
        )
        return text, picture, view_of([button])

    def _table(self, interaction: discord.Interaction, item: Puzzle) -> GameSession:
        """The puzzle's position as a private practice table: the member in the solver's seat."""
        engine = self.adapters[item.game].engine
        return practice_table(interaction, item.game, engine.schema, item.state(), item.seat)

    # ------------------------------------------------------------ the controls
    def _puzzle(self, arg: str) -> tuple[Puzzle, str, list[str]]:
        game, puzzle_id, mode, *chosen = arg.split(SEPARATOR)
        item = puzzles.puzzle(game, puzzle_id) if game in self.games else None
        if item is None:
            raise UserError(GONE)
        return item, mode, chosen

    async def _open(self, interaction: discord.Interaction, _: int, arg: str) -> None:
        item, mode, _chosen = self._puzzle(arg)
        await self._ask(interaction, item, mode, [], 0, first=True)

    async def _choose(self, interaction: discord.Interaction, _: int, arg: str, values: list[str]) -> None:
        item, mode, chosen = self._puzzle(arg)
        picked = "+".join(values)
        if picked.startswith(PAGE):
            await self._ask(interaction, item, mode, chosen, int(picked.removeprefix(PAGE)))
            return
        await self._ask(interaction, item, mode, [*chosen, picked], 0)

    async def _next(self, interaction: discord.Interaction, _: int, game: str) -> None:
        if game not in self.games:
            raise UserError(GONE)
        text, picture, view = await self._page(interaction, *await self._rated_pick(interaction.user.id, game))
        await reply_private(interaction, text, picture, view)

    async def _ask(
        self,
        interaction: discord.Interaction,
        item: Puzzle,
        mode: str,
        chosen: list[str],
        page: int,
        first: bool = False,
    ) -> None:
        """The menu's next step for the choices so far, or, once they leave one action, the verdict."""
        menus, menu = self.menus, self._menu(item.game)
        engine = self.adapters[item.game].engine
        table = self._table(interaction, item)
        actions = menus.actions(menu, engine, table, item.seat)
        at, index = menus.narrow(menu, engine, table, item.seat, chosen, actions)
        if index is None:
            await self._answer(interaction, item, mode, table, dict(at.actions[0]))
            return
        step = menu.steps[index]
        content = step.prompt(at) if callable(step.prompt) else step.prompt
        drawing = step.picture(at) if step.picture else None
        picture = await self.pictures.draw(drawing) if drawing else None
        view = view_of([self._select(item, mode, menu, at, index, chosen, page)])
        if first:
            await reply_private(interaction, content, picture, view)
            return
        files = [as_file(picture)] if picture else []
        await interaction.edit_original_response(content=content, view=view, attachments=files)

    def _select(
        self, item: Puzzle, mode: str, menu: ActionMenu, at: Narrowing, index: int, chosen: list[str], page: int
    ) -> SessionSelect:
        """The step's select as the game shows it (its labels, descriptions and placeholder)."""
        step = menu.steps[index]
        values = step.values(at.actions)
        arg = SEPARATOR.join((item.game, item.id, mode, *chosen))
        placeholder = step.placeholder(at) if callable(step.placeholder) else (step.placeholder or "Choose…")
        size = OPTIONS_LIMIT - 2
        shown = values if len(values) <= OPTIONS_LIMIT else values[page * size : (page + 1) * size]
        options = [Learn._option(step, at, value) for value in shown]
        if len(values) > OPTIONS_LIMIT and page > 0:
            options.insert(0, discord.SelectOption(label="◀ Earlier choices", value=f"{PAGE}{page - 1}"))
        if len(values) > OPTIONS_LIMIT and (page + 1) * size < len(values):
            options.append(discord.SelectOption(label="More choices ▶", value=f"{PAGE}{page + 1}"))
        return SessionSelect(NO_SESSION, CHOOSE, arg, options=options, placeholder=placeholder[:150])

    # ------------------------------------------------------------ the verdict
    def _said(self, table: GameSession, state: Any, seat: int, action: dict[str, Any]) -> tuple[str, Any]:
        """What the game says of ``action`` played on ``state``, and the state after it."""
        after = self.adapters[table.record.game].engine.apply(state, seat, action)
        narrate = pictures(table.record.game).narrate
        return " ".join(s for s in (narrate(event, table.bold_names) for event in after.events) if s), after

    async def _answer(
        self, interaction: discord.Interaction, item: Puzzle, mode: str, table: GameSession, action: dict[str, Any]
    ) -> None:
        solved = puzzles.is_answer(item, action)
        said, after = self._said(table, item.state(), item.seat, action)
        lines = [f"✓ **Solved.** {said}" if solved else f"✗ **Not this one.** {said}"]
        picture = None
        if solved:
            lines.append(self._why(item))
        else:
            reply = await self.thinking.run(puzzles.reply, item, action)
            if reply is not None:
                allowed, shown = self._said(table, after, after.to_move, reply)
                whose = "this reply" if after.to_move != item.seat else "this, best played on (your opponent skipped)"
                lines.append(f"It allows {whose}: {allowed}")
                picture = await self.pictures.draw(Drawing(lesson_picture, (item.game, shown, table.names, ())))
            answer_said, _ = self._said(table, item.state(), item.seat, puzzles.answer_action(item))
            lines.append(f"The winning move was **{item.answer}**: {answer_said} {self._why(item)}")
        day = mode_day(mode)
        if day is None:
            lines.append(await self._rate(interaction.user.id, item, solved))
            view = view_of(
                [SessionButton(NO_SESSION, NEXT, item.game, label="Next puzzle ▶", style=discord.ButtonStyle.primary)]
            )
        else:
            lines.append(await self._daily_played(interaction, item, day, solved))
            view = None
        files = [as_file(picture)] if picture else []
        await interaction.edit_original_response(content="\n".join(lines), view=view, attachments=files)

    @staticmethod
    def _why(item: Puzzle) -> str:
        depths = " and ".join(str(depth) for depth in item.depths)
        return f"Every other move loses the advantage (checked by searches {depths} moves deep)."

    async def _rate(self, user_id: int, item: Puzzle, solved: bool) -> str:
        before, _played, _solved = await store.rating(self.store, user_id, item.game)
        after = update(before, item.rating, solved)
        if not await store.attempt(self.store, user_id, item.game, item.id, solved, after):
            return f"You had played this puzzle already: your puzzle rating stays **{round(before.rating)}**."
        return (
            f"Puzzle rating: {round(before.rating)} → **{round(after.rating)}** (this puzzle is rated {item.rating})."
        )

    # ------------------------------------------------------------ the daily puzzle
    async def _daily(self, interaction: discord.Interaction, game: str) -> None:
        if interaction.guild_id is None:
            raise UserError("The daily puzzle is each server's: ask for it in a server's channel.")
        today = puzzle_day(self.now())
        item = puzzles.daily(game, today)
        assert item is not None  # only games with a set are offered
        yesterday = puzzles.daily(game, today - timedelta(days=1))
        before = ""
        number = puzzle_number(today - timedelta(days=1))
        if yesterday is not None and number >= 1:  # yesterday is over for everyone: its answer is no spoiler now
            before = f"\n-# Yesterday's puzzle #{number}: the answer was **{yesterday.answer}**."
        played = await store.daily_play(self.store, interaction.guild_id, interaction.user.id, game, today)
        if played is not None:
            streak = await self._streak_text(interaction.guild_id, interaction.user.id, game)
            verdict = "solved" if played else "missed"
            text = (
                f"## {self.title(game)} daily puzzle #{puzzle_number(today)}\nYou {verdict} today's puzzle: its "
                f"answer was **{item.answer}**. {streak}\nShare: `{self._share(game, today, played, streak)}`{before}"
            )
            await reply_private(interaction, text)
            return
        text, picture, view = await self._page(interaction, item, daily_mode(today))
        await reply_private(interaction, text + before, picture, view)

    async def _daily_played(self, interaction: discord.Interaction, item: Puzzle, day: date, solved: bool) -> str:
        guild_id = interaction.guild_id
        if guild_id is None or day != puzzle_day(self.now()):
            return "That daily puzzle is over: type `/puzzle daily:True` for today's."
        fresh = await store.play_daily(self.store, guild_id, interaction.user.id, item.game, day, item.id, solved)
        streak = await self._streak_text(guild_id, interaction.user.id, item.game)
        if not fresh:
            return f"You had played today's puzzle already: this try does not count. {streak}"
        return f"{streak}\nShare (no spoiler): `{self._share(item.game, day, solved, streak)}`"

    async def _streak_text(self, guild_id: int, user_id: int, game: str) -> str:
        plays = await store.daily_plays(self.store, guild_id, user_id, game)
        current = puzzles.daily_streaks(plays, puzzle_day(self.now())).current
        return f"🔥 Streak: {plural(current.played, 'day')} played and {current.won} solved in a row."

    def _share(self, game: str, day: date, solved: bool, streak: str) -> str:
        mark = "✓ solved" if solved else "✗ missed"
        return f"🧩 {self.title(game)} daily puzzle #{puzzle_number(day)}: {mark} · {streak.removeprefix('🔥 ')}"


async def stats_lines(store_: Store, user_id: int) -> list[str]:
    """A member's puzzle ratings, one line per game they played puzzles of (for /stats)."""
    lines = []
    for game, rating, played, solved in await store.ratings(store_, user_id):
        title = registered_engine(game).title if game in puzzles.GAMES else game
        lines.append(
            f"**{title} puzzles**: rating {round(rating.rating)}, {solved} solved of {plural(played, 'puzzle')}"
        )
    return lines


__all__ = ["Puzzles", "Rating", "stats_lines"]
