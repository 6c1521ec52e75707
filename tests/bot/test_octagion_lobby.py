"""Octagion's lobby reaches every rule the engine has, through Discord only: variations combined
(by command and by the host's list), the countdown's difficulty, Beta's Treatment Cards per team,
party members placing only their own cards, and computer teams with a level."""

from __future__ import annotations

import pytest

from bot.games.octagion import OctagionAdapter
from engines.octagion import COUNTDOWN_CARDS, solution
from engines.octagion.ai import think_seconds
from tests.bot.test_octagion_bot import SEED, button_labels, live, private_answer, results_posted


@pytest.fixture
def games():
    return [OctagionAdapter]


def select_id(message, name: str) -> str:
    """The custom id of the lobby's select named ``name`` (e.g. "octagion_variations")."""
    for row in message.components:
        for child in row.children:
            if f":{name}:" in (child.custom_id or "") and not hasattr(child, "label"):
                return child.custom_id
    raise AssertionError(f"no {name} select in {message.content!r}")


async def open_lobby(world, **options):
    world.platform.new_seed = lambda: SEED
    opened = await world.ada.slash(world.channel, "octagion start", **options)
    assert opened.acknowledged
    return world.channel.last_message


async def choose(world, member, name: str, values: list[str]):
    lobby = world.channel.last_message
    return lobby, await member.select(lobby, values, custom_id=select_id(lobby, name))


async def test_the_host_combines_variations_and_sets_the_countdown_in_the_lobby(world):
    await open_lobby(world, rounds=1)
    await choose(world, world.ada, "octagion_variations", ["beta", "gamma"])
    lobby = world.channel.last_message
    assert "variations beta + gamma, standard countdown" in lobby.content
    lobby, refused = await choose(world, world.bo, "octagion_variations", ["zeta"])
    assert "Only the host" in private_answer(refused, lobby)
    lobby, refused = await choose(world, world.ada, "octagion_variations", ["alpha", "gamma"])
    assert private_answer(refused, lobby) == (
        "Those variations do not work together: Alpha and Gamma both set the clock: choose one of them."
    )
    assert (await live(world)).meta.options["variation"] == ["beta", "gamma"]
    await choose(world, world.ada, "octagion_countdown", ["hard"])
    assert "hard countdown" in world.channel.last_message.content
    await world.ada.click(world.channel.last_message, label="Start")
    state = (await live(world)).state
    assert state.options["variations"] == ["beta", "gamma"]
    assert {COUNTDOWN_CARDS[i].level for i in state.countdown_stack} == {2, 3}
    assert state.treatments == [3]


async def test_epsilon_brings_delta_and_virulent_is_its_four_parts(world):
    await open_lobby(world, rounds=1, variation="virulent")
    assert "variation virulent" in world.channel.last_message.content
    await choose(world, world.ada, "octagion_variations", ["epsilon", "zeta"])
    assert "variations delta + epsilon + zeta" in world.channel.last_message.content


async def test_start_takes_a_combination_and_refuses_an_impossible_one(world):
    refused = await world.ada.slash(world.channel, "octagion start", variation="alpha gamma")
    assert private_answer(refused) == (
        "Those variations do not work together: Alpha and Gamma both set the clock: choose one of them."
    )
    no_gamma = await world.ada.slash(world.channel, "octagion start", variation="beta", countdown="easy")
    assert "add `gamma`" in private_answer(no_gamma)
    assert await live(world) is None
    offered = await world.ada.autocomplete(world.channel, "octagion start", "variation", "alpha ")
    values = [choice["value"] if isinstance(choice, dict) else choice.value for choice in offered]
    assert "alpha zeta" in values
    assert "alpha beta" in values
    assert "alpha gamma" not in values  # never offered: the pair is refused
    lobby = await open_lobby(world, rounds=1, variation="alpha, zeta")
    assert "variations alpha + zeta" in lobby.content
    await world.ada.click(lobby, label="Start")
    state = (await live(world)).state
    assert state.options["variations"] == ["alpha", "zeta"]
    assert state.treatments == [3]  # Zeta brings the standard Treatment Cards


async def test_gamma_with_an_easy_countdown_from_the_command(world):
    lobby = await open_lobby(world, rounds=1, variation="gamma", countdown="easy")
    assert "variation gamma, easy countdown" in lobby.content
    await world.ada.click(lobby, label="Start")
    state = (await live(world)).state
    assert {COUNTDOWN_CARDS[i].level for i in state.countdown_stack} == {1, 2}
    assert state.seconds >= 70  # levels 1 and 2 run 1:10 to 1:55


async def test_beta_sets_each_teams_treatment_cards(world):
    lobby = await open_lobby(world, rounds=1, teams=2, variation="beta")
    await world.bo.select(lobby, ["1"], custom_id=select_id(lobby, "octagion_team"))
    await choose(world, world.ada, "octagion_computers", ["add:easy"])
    lobby = world.channel.last_message
    assert "Treatment Cards (Beta): Team 1 3 · Team 2 3 · Computer (easy) 3" in lobby.content
    stranger = await world.bo.click(lobby, label="Treatment Cards per team…")
    assert "Only the host" in private_answer(stranger, lobby)
    form = await world.ada.click(lobby, label="Treatment Cards per team…")
    fields = [row["components"][0] for row in form.modal["components"]]
    assert fields[0]["value"] == "3 3 3"
    assert fields[1]["value"] == "Team 1, Team 2, Computer (easy)"
    wrong = await world.ada.submit_modal(form, {"counts": "1 9 2"})
    assert private_answer(wrong) == "Give 3 numbers from 0 to 5, one per team in the lobby's order, e.g. 3 3 3."
    form = await world.ada.click(world.channel.last_message, label="Treatment Cards per team…")
    done = await world.ada.submit_modal(form, {"counts": "1 5 0"})
    assert private_answer(done) == "Treatment Cards per team: Team 1 1 · Team 2 5 · Computer (easy) 0."
    assert "Treatment Cards (Beta): Team 1 1 · Team 2 5 · Computer (easy) 0" in world.channel.last_message.content
    await world.ada.click(world.channel.last_message, label="Start")
    state = (await live(world)).state
    assert state.teams == [0, 1, 2]
    assert state.treatments == [1, 5, 0]


async def test_the_handicap_button_appears_only_with_beta(world):
    lobby = await open_lobby(world, rounds=1)
    assert "Treatment Cards per team…" not in button_labels(lobby)
    await choose(world, world.ada, "octagion_variations", ["beta"])
    assert "Treatment Cards per team…" in button_labels(world.channel.last_message)


async def test_party_members_place_only_their_own_cards(world):
    lobby = await open_lobby(world, rounds=1, teams=2, party=True)
    await world.bo.select(lobby, ["0"], custom_id=select_id(lobby, "octagion_team"))
    await world.cy.select(world.channel.last_message, ["1"], custom_id=select_id(lobby, "octagion_team"))
    await world.ada.click(world.channel.last_message, label="Start")
    round1 = world.channel.last_message
    session = await live(world)
    state = session.state
    word = state.words[0]
    best = solution(word)
    ada_numbers, bo_numbers = range(1, 5), range(5, 9)  # a team of two splits the numbers 1-4, 5-8
    ada_cards = {p: c for p, c in enumerate(best, 1) if c != "*" and int(c[1:]) in ada_numbers}
    bo_cards = {p: c for p, c in enumerate(best, 1) if c != "*" and int(c[1:]) in bo_numbers}
    typed = " ".join(f"{p}:{c}" for p, c in bo_cards.items())
    answer = await world.bo.slash(world.channel, "octagion play", cards=typed)
    assert "Only you can see this." in private_answer(answer)
    form = await world.ada.click(round1, label="Build variant")
    field = form.modal["components"][0]["components"][0]
    assert field["label"] == f"Your cards (numbers 1-4) for {word}"
    assert field.get("value") in (None, "")  # Ada has placed nothing yet: Bo's cards are not hers to retype
    await world.ada.submit_modal(form, {"variant": " ".join(f"{p}:{c}" for p, c in ada_cards.items())})
    variant = (await live(world)).state.variants[0]
    assert {p: variant[p - 1] for p in bo_cards} == bo_cards
    assert {p: variant[p - 1] for p in ada_cards} == ada_cards
    taken = next(iter(bo_cards))
    clash = await world.ada.slash(world.channel, "octagion play", cards=f"{taken}:*")
    assert f"Position {taken} already holds {bo_cards[taken]}, a teammate's card" in private_answer(clash)


async def test_a_hard_computer_team_answers_and_calls_got_it(world, settings):
    lobby = await open_lobby(world, rounds=1, seconds=100)
    await choose(world, world.ada, "octagion_computers", ["add:hard"])
    lobby, _ = await choose(world, world.ada, "octagion_computers", ["add:easy"])
    assert "**Computer teams**: Computer 1 (hard), Computer 2 (easy)" in world.channel.last_message.content
    await choose(world, world.ada, "octagion_computers", ["remove"])
    assert "**Computer teams**: Computer (hard)" in world.channel.last_message.content
    lobby, refused = await choose(world, world.bo, "octagion_computers", ["add:easy"])
    assert "Only the host" in private_answer(refused, lobby)
    await world.ada.click(world.channel.last_message, label="Start")
    session = await live(world)
    assert session.players == [world.ada.id, world.platform.bot.user.id]
    assert session.names == ["Ada", "Computer (hard)"]
    thinking = think_seconds("hard", 100)
    await world.env.advance_time(thinking - 5)
    await world.restart(settings, [OctagionAdapter])  # the computer's timer is stored like any other
    assert results_posted(world, 1) == []
    await world.env.advance_time(6)
    [result] = results_posted(world, 1)
    assert "**Computer (hard)** called Got it! (perfect, +2)" in result.content
    assert "**Computer (hard)**: 10 pts" in result.content
    assert "**Ada**: 0 pts (8 penalties)" in result.content


async def test_computer_teams_leave_when_no_member_is_left(world):
    await open_lobby(world, rounds=3)
    await choose(world, world.ada, "octagion_computers", ["add:easy"])
    await choose(world, world.ada, "octagion_computers", ["add:medium"])
    await world.ada.click(world.channel.last_message, label="Start")
    await world.ada.slash(world.channel, "octagion resign")
    assert (await live(world)).status == "active"  # two computer teams are still in it
    await world.env.advance_time(think_seconds("medium", 120) + 1)
    assert await live(world) is None  # the game ended at the computers' next answer
    final = world.channel.last_message.content
    assert "**Computer 1 (easy)** left the game." in final
    assert "won (the other teams left)." in final
