"""Tournaments through SimCord: a Swiss of eight played to the end by resignations and clock
forfeits, a round-robin, a knockout with byes and a replayed draw, the round's deadline, a
restart mid-round, an Octagion series, and the refusals members meet."""

from __future__ import annotations

import discord
import pytest

from bot.core.settings import Settings
from bot.dev.world import private_texts
from bot.features.tournaments import store as event_store
from bot.games.octagion import OctagionAdapter
from bot.games.octego import OctegoAdapter
from engines.octego import legal_moves

SEED = 99
EXTRA_NAMES = ("Eve", "Fay", "Gus", "Hal", "Ivy", "Jo")


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(token=None, database_path=str(tmp_path / "tournaments.db"))  # game threads on


@pytest.fixture
def games():
    return [OctegoAdapter, OctagionAdapter]


# ------------------------------------------------------------------ helpers


def host_of(world):
    hosts = world.guild.create_role("Hosts", permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(world.env.create_user("host", global_name="Host"), roles=[hosts])


def players(world, count: int) -> list:
    extra = [world.guild.add_member(world.env.create_user(n.lower(), global_name=n)) for n in EXTRA_NAMES]
    return [*world.members, *extra][:count]


def answer(result) -> str:
    return private_texts(result)[-1]


async def create(world, host, **options) -> int:
    world.platform.new_seed = lambda: SEED
    result = await host.slash(world.channel, "tournament create", **options)
    assert "is open" in answer(result), private_texts(result)
    found = await event_store.live_in_channel(world.platform.store, world.platform.sessions, world.channel.id)
    return found[-1].id


async def event(world, event_id):
    return await world.platform.sessions.load(event_id)


def card_of(world, session) -> discord.Message:
    return world.message(session.record.card_id)


async def join_all(world, event_id, members) -> None:
    session = await event(world, event_id)
    for member in members:
        result = await member.click(card_of(world, session), label="Join")
        assert "You joined" in answer(result), private_texts(result)


async def games_of_round(world, event_id, number) -> dict[int, object]:
    opened = await event_store.games_of_round(world.platform.store, event_id, number)
    return {table: await world.platform.sessions.load(sid) for table, sid in opened.items()}


def thread_of(world, game):
    return next(t for t in world.channel.threads if t.id == game.record.thread_id)


def member(world, everyone, user_id):
    return next(m for m in everyone if m.id == user_id)


async def resign(world, everyone, game, loser_id) -> None:
    result = await member(world, everyone, loser_id).slash(thread_of(world, game), "octego resign")
    assert "resign" in answer(result).lower(), private_texts(result)
    await world.env.settle()


async def move(world, everyone, game, path=None) -> None:
    """The player on turn moves (``path``, or their first legal move), in the game's thread."""
    game = await world.platform.sessions.load(game.id)
    seat = world.platform.games["octego"].engine.to_act(game.state)[0]
    path = path or legal_moves(game.state, seat)[0]
    actor = member(world, everyone, game.players[seat])
    result = await actor.slash(thread_of(world, game), "octego move", path=path)
    assert private_texts(result)[-1].startswith("Done."), private_texts(result)


SHUTTLE = ["a1-a2", "a8-a7", "a2-a1", "a7-a8"] * 2  # the same position three times: a draw


async def draw(world, everyone, game) -> None:
    for path in SHUTTLE:
        await move(world, everyone, game, path)
    await world.env.settle()
    assert (await world.platform.sessions.load(game.id)).status == "finished"


class Ledger:
    """The results as the test made them happen, and the standings computed from them by the
    rules (shared/rules: win 1, draw 1/2, bye 1; Buchholz, then Sonneborn-Berger), independently
    of the bot's engine."""

    def __init__(self):
        self.games: list[tuple[int, int, float]] = []  # (first, second, first's score)
        self.byes: list[int] = []

    def won(self, winner: int, loser: int) -> None:
        self.games.append((winner, loser, 1.0))

    def points(self, everyone) -> dict[int, float]:
        totals = {m.id: 0.0 for m in everyone}
        for first, second, score in self.games:
            totals[first] += score
            totals[second] += 1 - score
        for player in self.byes:
            totals[player] += 1
        return totals

    def ranked(self, everyone) -> list[tuple[int, float, float, float]]:
        """(player, points, Buchholz, Sonneborn-Berger), best first; exact ties in joining order."""
        totals = self.points(everyone)
        bh = dict.fromkeys(totals, 0.0)
        sb = dict.fromkeys(totals, 0.0)
        for first, second, score in self.games:
            bh[first] += totals[second]
            bh[second] += totals[first]
            sb[first] += score * totals[second]
            sb[second] += (1 - score) * totals[first]
        order = sorted(everyone, key=lambda m: (-totals[m.id], -bh[m.id], -sb[m.id], everyone.index(m)))
        return [(m.id, totals[m.id], bh[m.id], sb[m.id]) for m in order]

    def met(self) -> list[frozenset[int]]:
        return [frozenset((first, second)) for first, second, _ in self.games]


async def standings_lines(world, someone) -> list[str]:
    result = await someone.slash(world.channel, "tournament standings")
    return private_texts(result)[-1].splitlines()[1:]


async def start(world, host, event_id) -> None:
    result = await host.click(card_of(world, await event(world, event_id)), label="Start")
    assert "has started" in answer(result), private_texts(result)
    await world.env.settle()


async def started(world, count: int, **options) -> tuple:
    """A host's tournament of ``count`` players, created, joined by all, and started."""
    host = host_of(world)
    everyone = players(world, count)
    event_id = await create(world, host, **options)
    await join_all(world, event_id, everyone)
    await start(world, host, event_id)
    return host, everyone, event_id


# -------------------------------------------------------------------- tests


async def test_a_swiss_of_eight_plays_three_rounds_by_resignations_clock_forfeits_and_a_withdrawal(world):
    host = host_of(world)
    everyone = players(world, 8)
    names = {m.id: m.user.global_name or m.name for m in everyone}
    event_id = await create(world, host, game="octego", format="swiss", rounds=3, round_time="1h")
    await join_all(world, event_id, everyone)
    await start(world, host, event_id)
    ledger, withdrawn = Ledger(), everyone[7]
    for number in (1, 2, 3):
        session = await event(world, event_id)
        assert len(session.state.rounds) == number
        round_ = session.state.round(number)
        for pairing in round_.pairings:
            if pairing.is_bye:  # to the lowest-ranked player still in who has not had one
                out = set(session.state.withdrawn) | set(ledger.byes)
                eligible = [p for p, *_ in ledger.ranked(everyone) if p not in out]
                assert pairing.first == eligible[-1], (names[pairing.first], [names[p] for p in eligible])
                ledger.byes.append(pairing.first)
        games = await games_of_round(world, event_id, number)
        assert sorted(games) == sorted(p.table for p in round_.pairings if not p.is_bye), "a game per pairing"
        for game in games.values():
            assert game.status == "active"
            assert game.record.thread_id is not None, "each game in its own thread"
            intro = thread_of(world, game).history()[0]
            assert all(f"<@{p}>" in intro.content for p in game.players), "the players are pinged in the thread"
        if number == 2:  # a player withdraws mid-round: their game is forfeited, and they are paired no more
            result = await withdrawn.slash(world.channel, "tournament withdraw")
            assert "withdrew" in answer(result), private_texts(result)
            await world.env.settle()
        on_time = max(games)  # the last table is decided by the clock: the first player never moves
        for table, game in sorted(games.items()):
            first, second = game.players
            if withdrawn.id in game.players and number >= 2:
                ledger.won(second if first == withdrawn.id else first, withdrawn.id)
                continue
            if table == on_time:
                continue
            loser = first if (table + number) % 2 else second
            await resign(world, everyone, game, loser)
            ledger.won(second if loser == first else first, loser)
        clocked = games[on_time]
        if withdrawn.id not in clocked.players or number == 1:
            await world.env.advance_time(clocked.meta.clock_seconds + 1)
            assert (await world.platform.sessions.load(clocked.id)).status == "finished", "lost on time"
            ledger.won(clocked.players[1], clocked.players[0])
        await world.env.settle()
        session = await event(world, event_id)
        bot_pairing = {frozenset(p.players): p.result for p in session.state.round(number).pairings if not p.is_bye}
        assert all(result is not None for result in bot_pairing.values())
    session = await event(world, event_id)
    assert session.status == "finished"
    met = ledger.met()
    assert len(met) == len(set(met)), "nobody met the same opponent twice"
    assert len(ledger.byes) == 1, "a bye in the round of seven, none while eight played"
    assert withdrawn.id not in ledger.byes
    expected = ledger.ranked(everyone)
    lines = await standings_lines(world, everyone[0])
    shown = [(line.split(". ", 1)[1].split(":")[0], line.split(": ")[1].split(" point")[0]) for line in lines]
    assert shown == [(names[p], f"{points:g}") for p, points, _, _ in expected], (shown, expected)
    card = card_of(world, session)
    assert "Final" in card.content
    assert names[expected[0][0]] in card.content, "the card shows the podium"
    final = [m for m in world.channel.history() if "final standings" in m.content]
    assert final[-1].attachments, "the final standings are posted with their picture"


async def play_round_by_resignations(world, everyone, event_id, number, ledger=None) -> dict[int, object]:
    """Every game of the round: the second player resigns."""
    games = await games_of_round(world, event_id, number)
    for game in games.values():
        if game.status == "active":
            await resign(world, everyone, game, game.players[1])
            if ledger is not None:
                ledger.won(game.players[0], game.players[1])
    await world.env.settle()
    return games


async def test_a_round_robin_of_five_pairs_everyone_once_with_a_bye_each_round(world):
    _host, everyone, event_id = await started(world, 5, game="octego", format="round_robin", round_time="1d")
    met, byes, ledger = [], [], Ledger()
    for number in range(1, 6):
        session = await event(world, event_id)
        assert len(session.state.rounds) == number, f"round {number} is paired once the one before is complete"
        byes += [p.first for p in session.state.round(number).pairings if p.is_bye]
        games = await play_round_by_resignations(world, everyone, event_id, number, ledger)
        met += [frozenset(game.players) for game in games.values()]
    session = await event(world, event_id)
    assert session.status == "finished"
    assert len(met) == len(set(met)) == 10, "every pair of five met exactly once"
    assert sorted(byes) == sorted(m.id for m in everyone), "each player sat out one round"
    rows = await standings_lines(world, everyone[0])
    # The first player won every game: sides alternate, so each won the two games they moved first
    # in, and scored their bye.
    assert all(row.endswith(": 3 points") for row in rows), rows
    for player in everyone:
        assert sum(1 for first, _, _ in ledger.games if first == player.id) == 2


async def test_a_knockout_of_six_gives_the_top_seeds_byes_and_replays_a_draw_with_sides_swapped(world):
    _host, everyone, event_id = await started(world, 6, game="octego", format="knockout", round_time="1d")
    session = await event(world, event_id)
    first_round = session.state.round(1)
    bye_to = {p.first for p in first_round.pairings if p.is_bye}
    assert bye_to == {everyone[0].id, everyone[1].id}, "byes to the top two seeds (equal ratings: joining order)"
    games = await games_of_round(world, event_id, 1)
    assert len(games) == 2
    drawn_table, drawn = sorted(games.items())[0]
    await draw(world, everyone, drawn)
    session = await event(world, event_id)
    replay = next(p for p in session.state.round(1).pairings if p.replay_of == drawn_table)
    assert (replay.first, replay.second) == (drawn.players[1], drawn.players[0]), "replayed once, sides swapped"
    games = await games_of_round(world, event_id, 1)
    assert games[replay.table].status == "active", "the replay is a game of its own, in its own thread"
    assert games[replay.table].record.thread_id != drawn.record.thread_id
    await play_round_by_resignations(world, everyone, event_id, 1)
    for number in (2, 3):
        session = await event(world, event_id)
        assert len(session.state.rounds) == number
        await play_round_by_resignations(world, everyone, event_id, number)
    session = await event(world, event_id)
    assert session.status == "finished"
    card = card_of(world, session)
    assert "🥇" in card.content, "the final card: the podium, and every game's replay"
    options = card.components[0].children[0].options
    assert len(options) == 2 + 1 + 2 + 1, "six games: two, the replay, the semi-finals, the final"


async def test_the_round_deadline_scores_a_game_still_running_as_a_draw_and_stops_it(world):
    host = host_of(world)
    everyone = players(world, 3)
    event_id = await create(world, host, game="octego", format="swiss", rounds=1, round_time="10m")
    await join_all(world, event_id, everyone)
    card = card_of(world, await event(world, event_id))
    assert "still running when its round's time is up: it is scored a draw" in card.content, "said before the start"
    await start(world, host, event_id)
    (game,) = (await games_of_round(world, event_id, 1)).values()
    for _ in range(4):  # both keep moving within the turn clock until the round's time is up
        await move(world, everyone, game)
        await world.env.advance_time(150)
    await world.env.settle()
    stopped = await world.platform.sessions.load(game.id)
    assert stopped.status == "stopped"
    assert "Round time is up" in stopped.meta.final_header
    session = await event(world, event_id)
    assert session.status == "finished"
    pairing = next(p for p in session.state.round(1).pairings if not p.is_bye)
    assert pairing.result == "deadline"
    rows = await standings_lines(world, everyone[0])
    bye_player = next(p.first for p in session.state.round(1).pairings if p.is_bye)
    assert any(line.endswith(": 1 point") for line in rows), rows  # the bye
    assert sum(line.endswith(": 0.5 points") for line in rows) == 2, rows
    assert bye_player not in game.players


async def test_a_restart_mid_round_keeps_the_round_and_pairs_the_next_once(world, settings, games):
    _host, everyone, event_id = await started(world, 4, game="octego", format="swiss", rounds=2, round_time="1d")
    first_games = await games_of_round(world, event_id, 1)
    table, game = sorted(first_games.items())[0]
    await resign(world, everyone, game, game.players[0])
    await world.restart(settings, games)
    other = next(g for t, g in first_games.items() if t != table)
    await resign(world, everyone, other, other.players[0])
    await world.env.settle()
    session = await event(world, event_id)
    assert len(session.state.rounds) == 2
    assert session.state.round(1).complete
    assert len(await games_of_round(world, event_id, 1)) == 2, "no game of round 1 opened twice"
    second = await games_of_round(world, event_id, 2)
    assert len(second) == 2
    assert all(g.status == "active" for g in second.values())
    threads = [m for m in world.channel.history() if m.type == discord.MessageType.thread_created]
    assert len(threads) == 4, "one thread per game, none opened twice across the restart"


async def test_a_four_member_octagion_series_plays_its_races_in_one_thread(world):
    host = host_of(world)
    everyone = world.members
    event_id = await create(world, host, game="octagion", format="series", rounds=2, round_time="1d")
    await join_all(world, event_id, everyone)
    await start(world, host, event_id)
    races = []
    for number in (1, 2):
        (race,) = (await games_of_round(world, event_id, number)).values()
        races.append(race)
        assert sorted(race.players) == sorted(m.id for m in everyone)
        for _ in range(40):  # every round runs out its timer
            await world.env.advance_time(60)
            if (await world.platform.sessions.load(race.id)).status != "active":
                break
        await world.env.settle()
        assert (await world.platform.sessions.load(race.id)).status == "finished"
    threads = {(await world.platform.sessions.load(r.id)).record.play_channel_id for r in races}
    assert len(threads) == 1, "both races in the series' one thread"
    session = await event(world, event_id)
    assert session.status == "finished"
    assert len(session.state.races) == 2
    said = ("standings after race", "final standings")
    posted = [m for m in world.channel.history() if any(words in m.content for words in said)]
    assert len(posted) == 2, "a standings picture after each race"
    assert all(m.attachments for m in posted)


# ------------------------------------------------------------------ refusals


async def test_what_members_are_refused_is_said_privately_and_changes_nothing(world):
    host = host_of(world)
    ada, bo, cy, di = world.members
    refused = await ada.slash(world.channel, "tournament create", game="octego", format="swiss")
    assert "Manage Server" in answer(refused)
    event_id = await create(world, host, game="octego", format="swiss", round_time="1d")
    await join_all(world, event_id, [ada, bo])
    again = await ada.click(card_of(world, await event(world, event_id)), label="Join")
    assert "already joined" in answer(again)
    not_host = await ada.click(card_of(world, await event(world, event_id)), label="Start")
    assert "Only the host" in answer(not_host)
    assert (await event(world, event_id)).status == "lobby"
    too_few = await host.click(card_of(world, await event(world, event_id)), label="Start")
    assert "cancelled" in answer(too_few)
    assert "at least 3 players" in answer(too_few)
    session = await event(world, event_id)
    assert session.status == "cancelled"
    assert "cancelled" in card_of(world, session).content
    second = await create(world, host, game="octego", format="swiss", round_time="1d")
    await join_all(world, second, [ada, bo, cy])
    await start(world, host, second)
    late = await di.slash(world.channel, "tournament join")
    assert "already started" in answer(late)
    pause = await ada.slash(world.channel, "tournament pause")
    assert "Only the host" in answer(pause)
    wrong = await host.slash(world.channel, "tournament create", game="octagion", format="swiss")
    assert "Series" in answer(wrong)


async def test_a_player_who_left_the_server_is_withdrawn_at_the_next_pairing(world):
    _host, everyone, event_id = await started(world, 4, game="octego", format="round_robin", round_time="1d")
    leaver = everyone[3]
    world.guild.remove_member(leaver)
    games = await games_of_round(world, event_id, 1)
    for game in games.values():
        if leaver.id not in game.players:
            await resign(world, everyone, game, game.players[1])
        elif game.players[1] == leaver.id:
            await move(world, everyone, game)  # the leaver is to move, and never will
    left = next(g for g in games.values() if leaver.id in g.players)
    await world.env.advance_time(left.meta.clock_seconds + 1)
    await world.env.settle()
    session = await event(world, event_id)
    assert leaver.id in session.state.withdrawn
    gone = next(p for p in session.state.round(2).pairings if leaver.id in p.players)
    assert gone.result in ("first forfeits", "second forfeits"), "their game is forfeited"
    assert any("left the server" in m.content for m in world.channel.history())


async def test_the_host_pauses_resumes_removes_and_ends_and_nobody_else_can(world):
    host, everyone, event_id = await started(world, 4, game="octego", format="round_robin", round_time="1d")
    paused = await host.slash(world.channel, "tournament pause")
    assert "paused" in answer(paused)
    await play_round_by_resignations(world, everyone, event_id, 1)
    session = await event(world, event_id)
    assert len(session.state.rounds) == 1, "paused: no new round starts"
    refused = await everyone[0].slash(world.channel, "tournament resume")
    assert "Only the host" in answer(refused)
    resumed = await host.slash(world.channel, "tournament resume")
    assert "resumed" in answer(resumed)
    await world.env.settle()
    assert len((await event(world, event_id)).state.rounds) == 2, "resuming pairs the round that waited"
    removed = everyone[2]
    result = await host.slash(world.channel, "tournament remove", player=removed.user)
    assert "withdrew" in answer(result)
    await world.env.settle()
    session = await event(world, event_id)
    assert removed.id in session.state.withdrawn
    game = next(g for g in (await games_of_round(world, event_id, 2)).values() if removed.id in g.players)
    assert (await world.platform.sessions.load(game.id)).status == "finished", "their running game is forfeited"
    ended = await host.slash(world.channel, "tournament end")
    assert "ended" in answer(ended)
    await world.env.settle()
    session = await event(world, event_id)
    assert session.status == "finished"
    running = await games_of_round(world, event_id, len(session.state.rounds))
    assert all(g.status != "active" for g in running.values()), "games still running were stopped"
    history = await everyone[0].slash(world.channel, "tournament history")
    assert "Octego round-robin tournament" in answer(history)
    assert "🥇" in answer(history)


async def test_rated_tournament_games_feed_the_ratings_and_history_and_stats_name_the_event(world):
    _host, everyone, event_id = await started(
        world, 3, game="octego", format="swiss", rounds=1, round_time="1d", name="Autumn Open"
    )
    (game,) = (await play_round_by_resignations(world, everyone, event_id, 1)).values()
    ratings = await world.platform.store.ratings(world.guild.id, "octego", list(game.players))
    assert len(ratings) == 2, "both players of the rated game have a rating"
    history = answer(
        await world.members[0].slash(world.channel, "history", member=member(world, everyone, game.players[0]))
    )
    assert "🏆 Autumn Open" in history
    winner = member(world, everyone, game.players[0])
    stats = answer(await winner.slash(world.channel, "stats"))
    assert "**Tournaments**: Autumn Open" in stats


async def test_an_unrated_tournament_keeps_results_but_changes_no_rating_and_a_role_may_host(world):
    admin = host_of(world)
    organisers = world.guild.create_role("Organisers")
    organiser = world.guild.add_member(world.env.create_user("org", global_name="Org"), roles=[organisers])
    refused = await organiser.slash(world.channel, "tournament create", game="octego", format="swiss")
    assert "Manage Server" in answer(refused)
    await admin.slash(world.channel, "settings tournament_role", role=organisers)
    everyone = players(world, 3)
    event_id = await create(world, organiser, game="octego", format="swiss", rounds=1, round_time="1d", rated=False)
    await join_all(world, event_id, everyone)
    await start(world, organiser, event_id)
    (game,) = (await play_round_by_resignations(world, everyone, event_id, 1)).values()
    assert await world.platform.store.ratings(world.guild.id, "octego", list(game.players)) == []
    assert await world.platform.store.results(game.id), "its result is kept"


async def test_a_start_time_starts_it_by_itself_and_is_shown_as_a_discord_timestamp(world):
    host = host_of(world)
    everyone = players(world, 3)
    event_id = await create(world, host, game="octego", format="round_robin", round_time="1h", start="in 30m")
    session = await event(world, event_id)
    start_at = session.meta.options["start_at"]
    assert f"<t:{start_at}:R>" in card_of(world, session).content
    assert "Start" not in [b.label for row in card_of(world, session).components for b in row.children]
    await join_all(world, event_id, everyone)
    await world.env.advance_time(29 * 60)
    assert (await event(world, event_id)).status == "lobby"
    await world.env.advance_time(2 * 60)
    session = await event(world, event_id)
    assert session.status == "active"
    assert len(await games_of_round(world, event_id, 1)) == 1, "three players: one game and a bye"


async def test_a_start_time_with_too_few_players_cancels_it_with_a_clear_message(world):
    host = host_of(world)
    event_id = await create(world, host, game="octego", format="knockout", start="18:00")
    await join_all(world, event_id, [world.ada])
    await world.env.advance_time(24 * 3600)
    session = await event(world, event_id)
    assert session.status == "cancelled"
    notes = [m.content for m in world.channel.history() if "cancelled" in m.content]
    assert any("needs at least 3 players, and 1 joined" in note for note in notes), notes
