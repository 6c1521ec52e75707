"""The Activity's board per viewer (bot/features/activity/board.py), for every registered game
(tests/games.py): the real bot on SimCord, each game opened in #games as a tournament opens one.

A spectator gets the public picture and no step; the player who acts gets the step their picks
narrow to, with the regions of the picture each option sits in, and the action those picks make is
the menus' own, played here through the menus' ``play`` in one ``sessions.change`` as the server
plays it; a seated player sees what their private answers show and nobody else does; a player
off turn and a member not seated get the engine's reason, and nothing changes."""

from __future__ import annotations

import base64
import io

import pytest
from PIL import Image

from bot.core.sessions import SessionMeta
from bot.dev.world import MEMBER_NAMES
from bot.features.activity import board
from bot.games import all_games
from bot.ui.menu_steps import menu_actions, narrow, play
from render.regions import inside
from render.registry import pictures
from tests.games import GAMES, IDS

SEED = 11


@pytest.fixture
def games():
    return all_games()


async def open_game(world, game: str, players: int, options: dict, channel=None) -> int:
    """A running game of ``players`` members (Ada first) in #games or ``channel``, as a tournament
    opens one (also the Activity's browser test's and screenshots' games)."""
    seated = world.members[:players]
    ids, names = [m.id for m in seated], list(MEMBER_NAMES[:players])
    adapter = world.platform.games[game]
    with world.env._bot_scope():
        async with world.platform.sessions.open(
            game=game,
            guild_id=world.guild.id,
            channel_id=(channel or world.channel).id,
            host_id=ids[0],
            players=ids,
            status="challenge",
            meta=SessionMeta(names=names, options=dict(options), seats=ids),
            busy_text=lambda _: "busy",
        ) as change:
            change.start(ids, names, dict(options), SEED)
            adapter.tournament_started(change)  # Octagion's first round is posted, as a lobby's start does
    await world.platform.outbox.flush(change.record.id)
    return int(change.record.id)


def outsider(world):
    """A member of the server who plays in none of the games."""
    return world.guild.add_member(world.env.create_user("eve", global_name="Eve"))


async def views(world, session_id: int, viewer_id, picks=()):
    session = await world.platform.sessions.load(session_id)
    return session, await board.view(world.platform.games, session, viewer_id, list(picks))


def size(view) -> tuple[int, int]:
    with Image.open(io.BytesIO(base64.b64decode(view["picture"]))) as image:
        return image.size


def next_pick(world, session, seat: int, picks: list[str], shown: dict) -> str:
    """The first option of the step shown; for a step of several options at once, the first set
    that makes an action (as a player ticks the cards of one run)."""
    step = shown["step"]
    if not step["many"]:
        return step["options"][0]["key"]
    adapter = world.platform.games[session.record.game]
    menu = board.turn_menu(adapter)
    at, index = narrow(menu, session, seat, picks, menu_actions(menu, adapter.engine, session, seat))
    return "+".join(sorted(map(str, menu.steps[index].key(at.actions[0]))))


@pytest.mark.parametrize(("game", "players", "options"), GAMES, ids=IDS)
async def test_each_viewer_sees_what_they_may_and_plays_what_the_menus_play(world, game, players, options):
    session_id = await open_game(world, game, players, options)
    adapter = world.platform.games[game]
    eve = outsider(world)
    session, spectator = await views(world, session_id, eve.id)
    assert spectator["seat"] is None
    assert spectator["step"] is None
    assert spectator["picture"]
    assert spectator["status"]
    assert "**" not in spectator["status"]
    assert "<@" not in spectator["status"]
    assert (spectator["width"], spectator["height"]) == size(spectator)
    _, nobody = await views(world, session_id, None)
    assert nobody["picture"] == spectator["picture"], "a spectator signed in or not sees the public board"
    assert board.action(world.platform.games, session, eve.id, []) == board.NOT_SEATED

    acting = adapter.engine.to_act(session.state)
    seat = acting[0]
    member = world.members[seat]
    _, mine = await views(world, session_id, member.id)
    assert mine["seat"] == seat
    check_hidden(world, game, session, spectator, mine, seat)
    if board.turn_menu(adapter) is None:  # played by typing: the round's clock and the team's answer
        assert mine["step"] is None
        assert mine["race"]["deadline"]
        assert "variant" in mine["race"]["answer"]
        assert spectator["race"]["answer"] is None
        assert board.action(world.platform.games, session, member.id, []) == board.TYPED
        return
    off_turn = next(s for s in range(players) if s not in acting)
    _, theirs = await views(world, session_id, world.members[off_turn].id)
    assert theirs["step"] is None, "only the player who acts now is offered a step"
    refused = board.action(world.platform.games, session, world.members[off_turn].id, [])
    assert refused == adapter.engine.not_your_turn(session.state, off_turn)

    picks: list[str] = []
    while not mine["ready"]:
        step = mine["step"]
        assert step["prompt"], (game, picks)
        assert step["options"], (game, picks)
        for option in step["options"]:
            assert option["label"]
            if option["region"] is not None:
                assert inside(tuple(option["region"]), mine["width"], mine["height"]), (game, option)
        picks.append(next_pick(world, session, seat, picks, mine))
        _, mine = await views(world, session_id, member.id, picks)
        assert mine["picks"] == picks
        assert mine["notice"] is None
    assert board.action(world.platform.games, session, member.id, picks[:-1]) == board.INCOMPLETE or not picks[:-1]
    action = board.action(world.platform.games, session, member.id, picks)
    assert isinstance(action, dict)
    assert action in menu_actions(board.turn_menu(adapter), adapter.engine, session, seat)

    version = mine["version"]
    async with world.platform.sessions.change(session_id) as change:
        play(change, board.turn_menu(adapter), adapter.engine, seat, member.id, action)
    _, after = await views(world, session_id, eve.id)
    assert after["version"] > version, "the move was played"
    assert after["picture"] != spectator["picture"]


# How a seat's board says what its private answer shows, for a game that draws it on the public
# picture for its viewer (a game drawing the private picture under it is told by that picture's own
# description). A new game with a private view and neither fails here, naming it.
SAID_ON_THE_BOARD = {"octagone": "{name} holds "}


def secret_of(world, game: str, session, seat: int) -> str:
    if pictures(game).seated_below is not None:
        private = world.platform.games[game].private_picture(session, seat)
        return private.draw(*private.args).description
    assert game in SAID_ON_THE_BOARD, f"{game}: how does a seat's board show its private view?"
    return SAID_ON_THE_BOARD[game].format(name=session.names[seat])


def check_hidden(world, game: str, session, spectator: dict, mine: dict, seat: int) -> None:
    """What a player's private answer shows in Discord is on their board only."""
    if world.platform.games[game].private_view_label is None:
        return  # nothing hidden: every board shows the same game
    assert secret_of(world, game, session, seat) in mine["description"]
    for other in range(len(session.players)):
        secret = secret_of(world, game, session, other)
        assert secret not in spectator["description"], (game, other)
        if other != seat:
            assert secret not in mine["description"], (game, other)


async def test_picks_that_no_longer_fit_start_the_move_again(world):
    session_id = await open_game(world, "octego", 2, {})
    _, shown = await views(world, session_id, world.ada.id, ["h8"])  # no piece of Ada's there
    assert shown["notice"]
    assert shown["picks"] == []
    assert shown["step"]["options"]
    session = await world.platform.sessions.load(session_id)
    refused = board.action(world.platform.games, session, world.ada.id, ["h8", "h7"])
    assert isinstance(refused, str)
    assert refused


async def test_a_finished_game_offers_no_step(world):
    session_id = await open_game(world, "octego", 2, {})
    async with world.platform.sessions.change(session_id) as change:
        change.apply(0, {"type": "resign"}, by=world.ada.id)
    session, shown = await views(world, session_id, world.bo.id)
    assert shown["done"]
    assert shown["step"] is None
    assert shown["picture"]
    assert board.action(world.platform.games, session, world.bo.id, []) == board.NOT_RUNNING


async def test_an_open_challenge_has_no_board_yet(world):
    await world.ada.slash(world.channel, "octego challenge", opponent=world.bo)
    session = await world.session()
    shown = await board.view(world.platform.games, session, world.bo.id, [])
    assert shown["picture"] is None
    assert shown["step"] is None
    assert "Octego" in shown["status"]
    assert "<@" not in shown["status"]
