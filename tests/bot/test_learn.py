"""/learn through SimCord: a member plays a game's lessons with the game's own menu, privately,
sees their progress with ✓ marks, resumes after a restart, and ends on the ready message."""

from __future__ import annotations

import pytest

from bot.dev.world import private_messages
from bot.features.learn.series import SERIES
from bot.games import adapter

COVERED = sorted(SERIES)  # the games with lessons


@pytest.fixture
def games():
    return [adapter(game) for game in COVERED]


def public_messages(world) -> list:
    return [m.id for m in world.channel.history() if not m.flags.ephemeral]


def select_values(message) -> list[str]:
    return [o["value"] for o in message.components[0]["components"][0]["options"]]


def labels(message) -> list[str]:
    return [c.get("label") for row in message.components for c in row["components"]]


async def learn(world, member, game: str):
    result = await member.slash(world.channel, "learn", game=game)
    assert result.ephemeral
    return private_messages(result)[-1]


async def answer(world, member, page, game: str, action):
    """The lesson answered with its game's own controls: the menu, or the form of a typed game."""
    if SERIES[game].typed is not None:
        if "Start" in labels(page):  # a timed round: the clock starts first
            await member.click(page, label="Start")
        shown = await member.click(page, label=SERIES[game].typed.button)
        answered = await member.submit_modal(shown, {"answer": action})
        return private_messages(answered)[-1]
    return await choose(world, member, page, game, action)


async def choose(world, member, page, game: str, action: dict):
    """Opens the lesson's menu (the game's own button) and picks ``action`` step by step, as a
    member does in a game; returns the menu's message once it answered."""
    menu_of_game = world.platform.games[game].menus[0]
    shown = await member.click(page, label=labels(page)[0])  # the game's own button, as its message shows it
    assert shown.ephemeral
    menu = shown.response
    keys = {str(step.key(action)) for step in menu_of_game.steps if not step.many and step.key(action) is not None}
    several = {str(v) for step in menu_of_game.steps if step.many and step.key(action) for v in step.key(action)}
    while not menu.content.startswith(("✓", "✗")):
        select = menu.components[0]["components"][0]
        offered = select_values(menu)
        if select.get("max_values", 1) > 1:  # a step of several choices at once (Octa's cards)
            picked = [value for value in offered if value in several]
        else:
            picked = [value for value in offered if value in keys][:1]
        assert picked, f"the menu offers none of {keys | several}: {offered}"
        await member.select(menu, picked)
    return menu


def intended(world, game: str, lesson, member, last: bool = False):
    """A concrete action the lesson accepts, among those its menu offers (a typed lesson: its example)."""
    if SERIES[game].typed is not None:
        return lesson.example
    offered = menu_actions(world, game, lesson, member)
    right = [action for action in offered if lesson.accepts(action)]
    assert right, f"{lesson.key}: the menu offers no right answer"
    return right[-1] if last else right[0]


def engine_apply(world, game: str, lesson, text: str):
    engine = world.platform.games[game].engine
    return engine.apply(lesson.setup.build(engine), lesson.seat, SERIES[game].typed.action(text))


def menu_actions(world, game: str, lesson, member) -> list[dict]:
    menu, engine = world.platform.games[game].menus[0], world.platform.games[game].engine
    state = lesson.setup.build(engine)
    if menu.actions is not None:
        return menu.actions(state, lesson.seat)
    return [a for a in engine.legal_actions(state, lesson.seat) if a["type"] != "resign"]


async def test_a_member_completes_every_octego_lesson(world):
    series = SERIES["octego"]
    before = public_messages(world)
    page = await learn(world, world.ada, "octego")
    assert page.content.startswith(f"## Learn Octego · lesson 1 of {len(series.lessons)}")
    assert page.attachments[0].filename == "octego.png"
    assert "Ringed: c1." in page.attachments[0].description
    assert labels(page) == ["Move", "Skip ▶"]
    for number, lesson in enumerate(series.lessons, start=1):
        assert f"lesson {number} of" in page.content
        assert f"**Your task**: {lesson.task}" in page.content
        done = [item.title for item in series.lessons[: number - 1]]
        assert all(f"✓ {title}" in page.content for title in done)
        menu = await answer(world, world.ada, page, "octego", intended(world, "octego", lesson, world.ada))
        assert menu.content.startswith("✓ **Right.**"), menu.content
        assert lesson.why in menu.content
        if number < len(series.lessons):
            following = series.lessons[number]
            assert labels(menu) == [f"Next: {following.title} ▶"]
            await world.ada.click(menu, label=f"Next: {following.title} ▶")
            page = menu
    assert "🎓 **You are ready.**" in menu.content
    assert labels(menu) == ["Challenge someone", "Play me on easy", "Lessons again"]
    assert public_messages(world) == before  # a lesson never posts in the channel

    again = await learn(world, world.ada, "octego")
    assert "🎓 **You are ready.**" in again.content
    assert all(f"✓ {lesson.title}" in again.content for lesson in series.lessons)
    overview = private_messages(await world.ada.slash(world.channel, "learn"))[-1]
    assert f"**Octego**: {len(series.lessons)} of {len(series.lessons)} lessons done ✓" in overview.content
    assert public_messages(world) == before

    how = await world.ada.click(menu, label="Challenge someone")
    assert "/octego challenge opponent:@someone" in private_messages(how)[-1].content
    await world.ada.click(menu, label="Play me on easy")
    session = await world.session()
    assert session is not None
    assert session.record.game == "octego"
    assert session.meta.computer_level == "easy"


@pytest.mark.parametrize("game", COVERED)
async def test_every_lesson_of_every_taught_game_accepts_its_intended_answer(world, game):
    series = SERIES[game]
    before = public_messages(world)
    page = await learn(world, world.di, game)
    for number, lesson in enumerate(series.lessons, start=1):
        assert f"**Your task**: {lesson.task}" in page.content
        menu = await answer(world, world.di, page, game, intended(world, game, lesson, world.di, last=True))
        assert menu.content.startswith("✓ **Right.**"), (lesson.key, menu.content)
        if number < len(series.lessons):
            await world.di.click(menu, label=f"Next: {series.lessons[number].title} ▶")
            page = menu
    assert "🎓 **You are ready.**" in menu.content
    assert public_messages(world) == before


@pytest.mark.parametrize("game", COVERED)
async def test_a_wrong_answer_in_the_first_lesson_is_explained_and_the_lesson_stays(world, game):
    lesson = SERIES[game].lessons[0]
    page = await learn(world, world.bo, game)
    if SERIES[game].typed is not None:
        wrong = ""  # nothing typed: eight empty positions
        explained = lesson.explain(SERIES[game].typed.summary(engine_apply(world, game, lesson, wrong), lesson.seat))
    else:
        wrong = next(a for a in menu_actions(world, game, lesson, world.bo) if not lesson.accepts(a))
        explained = lesson.explain(wrong)
    menu = await answer(world, world.bo, page, game, wrong)
    assert menu.content.startswith("✗ **Not quite.**"), menu.content
    assert explained in menu.content
    assert "Try again" in menu.content
    if SERIES[game].typed is None:
        assert select_values(menu)  # the menu is asked again, from its first step
    again = await learn(world, world.bo, game)
    assert "lesson 1 of" in again.content
    assert "✓" not in again.content


async def test_progress_survives_a_restart_mid_series(world, settings):
    series = SERIES["octego"]
    page = await learn(world, world.cy, "octego")
    for lesson in series.lessons[:2]:
        menu = await answer(world, world.cy, page, "octego", intended(world, "octego", lesson, world.cy))
        await world.cy.click(menu, label=f"Next: {series.lessons[series.index(lesson.key) + 1].title} ▶")
        page = menu
    await world.restart(settings, [adapter(game) for game in COVERED])
    # The lesson shown before the restart still plays: its controls carry everything.
    menu = await answer(world, world.cy, page, "octego", intended(world, "octego", series.lessons[2], world.cy))
    assert menu.content.startswith("✓ **Right.**")
    resumed = await learn(world, world.cy, "octego")
    assert f"lesson 4 of {len(series.lessons)}" in resumed.content
    assert all(f"✓ {lesson.title}" in resumed.content for lesson in series.lessons[:3])
    assert f"**Your task**: {series.lessons[3].task}" in resumed.content


async def test_games_points_to_learn(world):
    games = private_messages(await world.di.slash(world.channel, "games"))[-1]
    assert "`/learn` teaches it in a few minutes" in games.content


async def test_privacy_delete_forgets_the_lessons_a_member_finished(world):
    lesson = SERIES["octego"].lessons[0]
    page = await learn(world, world.bo, "octego")
    menu = await answer(world, world.bo, page, "octego", intended(world, "octego", lesson, world.bo))
    assert menu.content.startswith("✓ **Right.**")
    assert "lesson 2 of" in (await learn(world, world.bo, "octego")).content
    question = private_messages(await world.bo.slash(world.channel, "privacy delete"))[-1]
    await world.bo.click(question, label="Delete my data")
    rows = await world.platform.store.query("SELECT * FROM learn_progress WHERE user_id = ?", (world.bo.id,))
    assert rows == []
    again = await learn(world, world.bo, "octego")
    assert "lesson 1 of" in again.content
    assert "✓" not in again.content


async def test_a_typed_answer_the_engine_cannot_read_gets_its_reason_and_the_lesson_stays(world):
    page = await learn(world, world.cy, "octagion")
    typed = SERIES["octagion"].typed
    shown = await world.cy.click(page, label=typed.button)
    answered = private_messages(await world.cy.submit_modal(shown, {"answer": "9 9 9"}))[-1]
    assert answered.content == "✗ Card numbers go from 1 to 8, not 9. Try again: press **Build variant**."
    assert "lesson 1 of" in (await learn(world, world.cy, "octagion")).content


async def test_the_overview_lists_every_taught_game_and_opens_where_the_member_stopped(world):
    overview = private_messages(await world.ada.slash(world.channel, "learn"))[-1]
    titles = [world.platform.games[game].title for game in world.platform.games if game in SERIES]
    assert labels(overview) == titles
    for game in COVERED:
        title, total = world.platform.games[game].title, len(SERIES[game].lessons)
        assert f"**{title}**: 0 of {total} lessons done" in overview.content
    await world.ada.click(overview, label="Octego")
    assert overview.content.startswith("## Learn Octego · lesson 1 of")
    assert labels(overview) == ["Move", "Skip ▶"]
    await world.ada.click(overview, label="Skip ▶")
    assert "lesson 2 of" in overview.content
    assert "✓" not in overview.content  # skipping finishes nothing
