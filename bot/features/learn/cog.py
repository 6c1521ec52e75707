"""`/learn` (a cog): each game taught in short private lessons played with the game's own menus.

A lesson's position lives nowhere but in its data (bot/features/learn/<game>.py): every click
rebuilds it through the engine, so a lesson is a private practice table that is never a stored
session (no ratings, no /history, no tournament, nothing in the channel). The controls are the
game's own: the button its menu declares, then the menu's steps narrowed by the platform's one
narrowing (:meth:`bot.ui.menus.Menus.narrow`), with the steps' own prompts, labels and pictures.
Each control's custom id carries the game, the lesson and the choices so far, and a member's
finished lessons are stored, so a lesson survives a restart and /learn resumes where they stopped.
Every answer is private.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.attachments import as_file
from bot.core.change import GameSession
from bot.core.text import sentence
from bot.core.workers import Drawing
from bot.features.game_choices import offer_choices
from bot.features.learn import store
from bot.features.learn.lessons import Lesson, Series
from bot.features.learn.series import SERIES
from bot.features.practice import NO_SESSION, practice_table
from bot.ui.controls import SessionButton, SessionSelect, session_modal, view_of
from bot.ui.menu_steps import ActionMenu, Narrowing
from bot.ui.menus import CONTROL as MENU_CONTROL
from bot.ui.menus import PAGE, step_option, step_select
from bot.ui.replies import UserError, acknowledge, reply_private
from engines.base import IllegalAction
from render.lessons import lesson_picture
from render.registry import pictures
from render.wording import plural

if TYPE_CHECKING:
    from bot.core.sessions import Sessions
    from bot.core.store import Store
    from bot.core.workers import WorkerPool
    from bot.ui.adapter import GameAdapter
    from bot.ui.context import Challenge
    from bot.ui.controls import Controls
    from bot.ui.menus import Menus

OPEN = "learn_open"  # the lesson's copy of the game's menu button: opens the menu privately
CHOOSE = "learn_menu"  # the menu's selects
GO = "learn_go"  # show a lesson (next, skip, again), or a game's series from the overview
EASY = "learn_easy"  # the ending's "play me on easy"
HOW = "learn_how"  # the ending's "challenge someone": how, privately
FORM = "learn_form"  # a typed lesson's form (the game's own form, e.g. Octagion's Build variant)
START = "learn_start"  # a timed lesson's Start: shows the position and starts its clock
ANSWER = "answer"  # the form's text field
SEPARATOR = "|"
GONE = "This lesson is no longer available: type `/learn` to pick up where you stopped."


class Learn(commands.Cog):
    def __init__(
        self,
        *,
        store: Store,
        sessions: Sessions,
        controls: Controls,
        menus: Menus,
        pictures: WorkerPool,
        challenge: Challenge,
        games: dict[str, GameAdapter],
    ):
        self.store, self.sessions, self.menus, self.pictures = store, sessions, menus, pictures
        self.challenge, self.games = challenge, games
        self.series = {game: SERIES[game] for game in games if game in SERIES}
        titles = [app_commands.Choice(name=games[game].title, value=game) for game in self.series]
        offer_choices(self.learn_command, game=titles)
        controls.button(OPEN, self._open, ack="private")
        controls.select(CHOOSE, self._choose)
        controls.button(GO, self._go)
        controls.button(EASY, self._easy, ack="private")
        controls.button(HOW, self._how, ack="private")
        controls.button(FORM, self._form, ack="modal")
        controls.button(START, self._start)
        controls.modal(FORM, self._typed)

    @app_commands.command(name="learn", description="Learn a game in a few minutes: short private lessons.")
    @app_commands.describe(game="Which game (default: every game's lessons, with your progress)")
    async def learn_command(
        self, interaction: discord.Interaction, game: app_commands.Choice[str] | None = None
    ) -> None:
        await acknowledge(interaction)
        if game is None:
            text, view = await self._overview(interaction.user.id)
            await reply_private(interaction, text, view=view)
            return
        series = self.series.get(game.value)
        if series is None:
            raise UserError(f"I have no lessons for {game.name} yet: type `/learn` to see those I have.")
        done = await store.finished(self.store, interaction.user.id, series.game)
        lesson = series.next_for(done)
        text, picture, view = await self._page(interaction, series, lesson, done)
        await reply_private(interaction, text, picture, view)

    # ------------------------------------------------------------ pages
    async def _overview(self, user_id: int) -> tuple[str, discord.ui.View]:
        finished = await store.finished_by_game(self.store, user_id)
        lines, buttons = ["## Learn the games", "Short private lessons, played with each game's own controls."], []
        for game, series in self.series.items():
            done = len(finished.get(game, set()) & {lesson.key for lesson in series.lessons})
            total = len(series.lessons)
            mark = " ✓" if done == total else ""
            lines.append(f"**{self.games[game].title}**: {done} of {plural(total, 'lesson')} done{mark}")
            buttons.append(SessionButton(NO_SESSION, GO, game, label=self.games[game].title))
        return "\n".join(lines), view_of(buttons[:25])

    async def _page(
        self, interaction: discord.Interaction, series: Series, lesson: Lesson | None, done: set[str]
    ) -> tuple[str, Any, discord.ui.View]:
        """A lesson with the list of the series' lessons (✓ the finished ones), or the ending."""
        if lesson is None:
            text = f"{self._heading(series, lesson, done)}\n\n🎓 **You are ready.** {series.ready}"
            return text, None, view_of(self._ready_buttons(series))
        text = self._lesson_text(series, lesson, done)
        table = self._table(interaction, series, lesson)
        arg = SEPARATOR.join((series.game, lesson.key))
        if lesson.timed and series.typed:  # the rule first: the position shows when the clock starts
            clock = clock_text(series.typed.seconds(table.state))
            text += f"\n\n⏱ **{clock}** on the clock: press **Start** when you are ready."
            start = SessionButton(NO_SESSION, START, arg, label="Start", style=discord.ButtonStyle.primary)
            return text, None, view_of([start, self._skip(series, lesson)])
        picture = await self._picture(series, lesson, table)
        opens, label = (FORM, series.typed.button) if series.typed else (OPEN, self._button(table))
        buttons = [SessionButton(NO_SESSION, opens, arg, label=label, style=discord.ButtonStyle.primary)]
        return text, picture, view_of([*buttons, self._skip(series, lesson)])

    def _heading(self, series: Series, lesson: Lesson | None, done: set[str]) -> str:
        """The series' title (with the lesson's number) and its lessons, ✓ beside the finished ones."""
        title = self.games[series.game].title
        marks = " · ".join(
            f"{'✓ ' if item.key in done else ''}{f'**{item.title}**' if item is lesson else item.title}"
            for item in series.lessons
        )
        if lesson is None:
            return f"## Learn {title}\n{marks}"
        number, finished = series.index(lesson.key) + 1, " ✓" if lesson.key in done else ""
        return f"## Learn {title} · lesson {number} of {len(series.lessons)}{finished}\n{marks}"

    def _lesson_text(self, series: Series, lesson: Lesson, done: set[str]) -> str:
        heading = self._heading(series, lesson, done)
        return f"{heading}\n\n**{lesson.title}**\n{lesson.text}\n\n**Your task**: {lesson.task}"

    async def _picture(self, series: Series, lesson: Lesson, table: GameSession) -> Any:
        drawing = Drawing(lesson_picture, (series.game, table.state, list(table.names), lesson.marks))
        return await self.pictures.draw(drawing)

    @staticmethod
    def _skip(series: Series, lesson: Lesson) -> SessionButton:
        later = series.after(lesson.key)
        skip = SEPARATOR.join((series.game, later.key if later else ""))
        return SessionButton(NO_SESSION, GO, skip, label="Skip ▶" if later else "Skip to the end ▶")

    def _ready_buttons(self, series: Series) -> list[discord.ui.Item[Any]]:
        first = SEPARATOR.join((series.game, series.lessons[0].key))
        buttons: list[discord.ui.Item[Any]] = []
        adapter = self.games[series.game]
        if adapter.challengeable:
            buttons.append(SessionButton(NO_SESSION, HOW, series.game, label="Challenge someone"))
            if adapter.has_computer:
                style = discord.ButtonStyle.success
                buttons.append(SessionButton(NO_SESSION, EASY, series.game, label="Play me on easy", style=style))
        buttons.append(SessionButton(NO_SESSION, GO, first, label="Lessons again"))
        return buttons

    # ------------------------------------------------------------ the lesson's table
    def _lesson(self, arg: str) -> tuple[Series, Lesson, list[str]]:
        game, key, *chosen = arg.split(SEPARATOR)
        series = self.series.get(game)
        lesson = series.lesson(key) if series else None
        if series is None or lesson is None:
            raise UserError(GONE)
        return series, lesson, chosen

    def _menu(self, series: Series) -> ActionMenu:
        return self.games[series.game].menus[0]

    def _button(self, table: GameSession) -> str:
        """The label of the menu button the game message would show in the lesson's position
        ("Move", "Place", "Set up"...): the game's own components, drawn for the practice table."""
        for item in self.games[table.record.game].components(table):
            if isinstance(item, SessionButton) and item.name == MENU_CONTROL:
                return item.item.label or self._menu(self.series[table.record.game]).button
        return self._menu(self.series[table.record.game]).button

    def _table(self, interaction: discord.Interaction, series: Series, lesson: Lesson) -> GameSession:
        """The lesson's position as a private practice table, built by the engine from the lesson's data."""
        engine = self.games[series.game].engine
        return practice_table(interaction, series.game, engine.schema, lesson.setup.build(engine), lesson.seat)

    # ------------------------------------------------------------ the controls
    async def _go(self, interaction: discord.Interaction, _: int, arg: str) -> None:
        game, _sep, key = arg.partition(SEPARATOR)
        series = self.series.get(game)
        if series is None:
            raise UserError(GONE)
        done = await store.finished(self.store, interaction.user.id, game)
        if SEPARATOR not in arg:  # from the overview: where the member stopped
            lesson = series.next_for(done)
        elif key:
            lesson = series.lesson(key)
            if lesson is None:
                raise UserError(GONE)
        else:
            lesson = None
        text, picture, view = await self._page(interaction, series, lesson, done)
        files = [as_file(picture)] if picture else []
        await interaction.edit_original_response(content=text, view=view, attachments=files)

    async def _start(self, interaction: discord.Interaction, _: int, arg: str) -> None:
        """A timed lesson's clock starts: the deadline goes into the form's button (and so into its
        form), so the round survives a restart and an answer after it is a time-out."""
        series, lesson, _chosen = self._lesson(arg)
        if series.typed is None:
            raise UserError(GONE)
        done = await store.finished(self.store, interaction.user.id, series.game)
        table = self._table(interaction, series, lesson)
        deadline = int(self.sessions.clock().timestamp()) + series.typed.seconds(table.state)
        text = f"{self._lesson_text(series, lesson, done)}\n\n⏱ The clock runs: time is up <t:{deadline}:R>."
        form = SEPARATOR.join((series.game, lesson.key, str(deadline)))
        style = discord.ButtonStyle.primary
        buttons = [SessionButton(NO_SESSION, FORM, form, label=series.typed.button, style=style)]
        files = [as_file(await self._picture(series, lesson, table))]
        view = view_of([*buttons, self._skip(series, lesson)])
        await interaction.edit_original_response(content=text, view=view, attachments=files)

    async def _time_up(
        self, interaction: discord.Interaction, series: Series, lesson: Lesson, chosen: list[str]
    ) -> bool:
        """A timed lesson answered after its deadline: the time-out explained, with a fresh start."""
        if not lesson.timed or series.typed is None:
            return False
        deadline = int(chosen[0]) if chosen and chosen[0].isdigit() else None
        if deadline is not None and self.sessions.clock().timestamp() <= deadline:
            return False
        arg = SEPARATOR.join((series.game, lesson.key))
        if deadline is None:  # a button from before the lesson was timed: its clock never started
            text, label = "⏱ This round is timed: press **Start** to start its clock.", "Start"
        else:
            label, ran_out = "Start again", f"⏱ **Time is up**: the clock ran out <t:{deadline}:R>."
            text = f"{ran_out} {series.typed.time_up} Press **{label}**."
        again = SessionButton(NO_SESSION, START, arg, label=label, style=discord.ButtonStyle.primary)
        await reply_private(interaction, text, view=view_of([again]))
        return True

    async def _open(self, interaction: discord.Interaction, _: int, arg: str) -> None:
        series, lesson, _chosen = self._lesson(arg)
        await self._ask(interaction, series, lesson, [], 0, first=True)

    async def _choose(self, interaction: discord.Interaction, _: int, arg: str, values: list[str]) -> None:
        series, lesson, chosen = self._lesson(arg)
        picked = "+".join(values)
        if picked.startswith(PAGE):
            await self._ask(interaction, series, lesson, chosen, int(picked.removeprefix(PAGE)))
            return
        await self._ask(interaction, series, lesson, [*chosen, picked], 0)

    async def _ask(
        self,
        interaction: discord.Interaction,
        series: Series,
        lesson: Lesson,
        chosen: list[str],
        page: int,
        first: bool = False,
        heading: str = "",
    ) -> None:
        """The menu's next step for the choices so far, or, once they leave one action, the verdict."""
        menus, menu = self.menus, self._menu(series)
        engine = self.games[series.game].engine
        table = self._table(interaction, series, lesson)
        at, index = menus.narrow(
            menu, engine, table, lesson.seat, chosen, menus.actions(menu, engine, table, lesson.seat)
        )
        if index is None:
            await self._answer(interaction, series, lesson, table, copy.deepcopy(at.actions[0]))
            return
        step = menu.steps[index]
        content = step.prompt(at) if callable(step.prompt) else step.prompt
        content = f"{heading}\n\n{content}" if heading else content
        drawing = step.picture(at) if step.picture else None
        picture = await self.pictures.draw(drawing) if drawing else None
        view = view_of([self._select(series, lesson, menu, at, index, chosen, page)])
        if first:
            await reply_private(interaction, content, picture, view)
            return
        files = [as_file(picture)] if picture else []
        await interaction.edit_original_response(content=content, view=view, attachments=files)

    @staticmethod
    def _select(
        series: Series, lesson: Lesson, menu: ActionMenu, at: Narrowing, index: int, chosen: list[str], page: int
    ) -> SessionSelect:
        """The step's select as the game shows it: the menus' own, its custom id the lesson's."""
        arg = SEPARATOR.join((series.game, lesson.key, *chosen))
        return step_select(NO_SESSION, CHOOSE, arg, menu.steps[index], at, page)

    _option = staticmethod(step_option)  # a step's choice as the menus show it (/puzzle's selects use it too)

    async def _answer(
        self,
        interaction: discord.Interaction,
        series: Series,
        lesson: Lesson,
        table: GameSession,
        action: dict[str, Any],
    ) -> None:
        """The engine plays the action on the lesson's position: the right answer moves on with its
        why; a wrong one is explained and the lesson stays, its menu asked again."""
        engine = self.games[series.game].engine
        after = engine.apply(table.state, lesson.seat, action)
        narrate = pictures(series.game).narrate
        said = " ".join(s for s in (narrate(event, table.bold_names) for event in after.events) if s)
        if not lesson.accepts(action):
            heading = f"✗ **Not quite.** {said} {lesson.explain(action)} Try again:"
            await self._ask(interaction, series, lesson, [], 0, heading=heading.replace("  ", " "))
            return
        text, view = await self._right(interaction, series, lesson, said)
        await interaction.edit_original_response(content=text, view=view, attachments=[])

    async def _right(
        self, interaction: discord.Interaction, series: Series, lesson: Lesson, said: str
    ) -> tuple[str, discord.ui.View]:
        """The lesson is finished (stored): its why, and the next lesson's button or the ending."""
        await store.finish(self.store, interaction.user.id, series.game, lesson.key)
        done = await store.finished(self.store, interaction.user.id, series.game)
        later = series.after(lesson.key)
        upcoming = series.next_for(done) if later is None or later.key in done else later
        text = f"✓ **Right.** {said} {lesson.why}"
        if upcoming is None:
            text += f"\n\n🎓 **You are ready.** {series.ready}"
            view = view_of(self._ready_buttons(series))
        else:
            arg = SEPARATOR.join((series.game, upcoming.key))
            label = f"Next: {upcoming.title} ▶"[:80]
            view = view_of([SessionButton(NO_SESSION, GO, arg, label=label, style=discord.ButtonStyle.primary)])
        return text, view

    async def _form(self, interaction: discord.Interaction, _: int, arg: str) -> None:
        """A typed lesson's form, as the game's own asks (its title, label and example)."""
        series, lesson, chosen = self._lesson(arg)
        typed, table = series.typed, self._table(interaction, series, lesson)
        if typed is None:
            raise UserError(GONE)
        if await self._time_up(interaction, series, lesson, chosen):
            return
        field: discord.ui.TextInput[Any] = discord.ui.TextInput(
            label=typed.label(table.state, lesson.seat)[:45],
            custom_id=ANSWER,
            required=False,
            max_length=80,
            placeholder=typed.placeholder(table.state, lesson.seat)[:100],
        )
        form = session_modal(NO_SESSION, FORM, arg, typed.title(table.state), [field])
        await interaction.response.send_modal(form)

    async def _typed(self, interaction: discord.Interaction, _: int, arg: str, values: dict[str, str]) -> None:
        """The form's answer: the engine plays it on the lesson's position (refusing it with its own
        reason), and the lesson judges the engine's account of it."""
        series, lesson, chosen = self._lesson(arg)
        typed, table = series.typed, self._table(interaction, series, lesson)
        if typed is None:
            raise UserError(GONE)
        if await self._time_up(interaction, series, lesson, chosen):
            return
        engine = self.games[series.game].engine
        try:
            after = engine.apply(table.state, lesson.seat, typed.action(values.get(ANSWER, "")))
        except IllegalAction as refused:
            await reply_private(interaction, f"✗ {sentence(str(refused))} Try again: press **{typed.button}**.")
            return
        result = typed.summary(after, lesson.seat)
        said = typed.said(after, lesson.seat)
        if not lesson.accepts(result):
            text = f"✗ **Not quite.** {said} {lesson.explain(result)} Try again: press **{typed.button}**."
            await reply_private(interaction, text)
            return
        text, view = await self._right(interaction, series, lesson, said)
        await reply_private(interaction, text, view=view)

    async def _easy(self, interaction: discord.Interaction, _: int, game: str) -> None:
        """A real game against me, on easy, in the channel /learn was typed in (the member asked for it)."""
        if game not in self.series or interaction.guild_id is None:
            raise UserError("Play me in a server's channel: `/<game> challenge` with me as the opponent.")
        me = interaction.client.user
        assert me is not None  # the bot is logged in: it answers an interaction
        await self.challenge(interaction, game, [me], {}, "easy")

    async def _how(self, interaction: discord.Interaction, _: int, game: str) -> None:
        title = self.games[game].title if game in self.games else game
        await reply_private(
            interaction,
            f"Type `/{game} challenge opponent:@someone`, or open a member's menu > **Apps** > **Challenge**, "
            f"and pick {title}.",
        )


def clock_text(seconds: int) -> str:
    """A round's clock as the game shows it: "1:55"."""
    return f"{seconds // 60}:{seconds % 60:02d}"
