"""The request budget (bot/core/pace.py) counts requests, not time taken: whatever the machine's
speed, no second of the event loop's clock holds more than its share."""

from __future__ import annotations

import asyncio

from bot.core.pace import CAN_WAIT_SHARE, PER_SECOND, WINDOW_SECONDS, ChannelEdits, RequestBudget, Turns


async def test_no_second_holds_more_requests_than_the_budget():
    budget = RequestBudget(per_second=3)
    loop = asyncio.get_running_loop()
    went: list[float] = []

    async def request() -> None:
        await budget.take()
        went.append(loop.time())

    await asyncio.gather(*(request() for _ in range(7)))
    assert len(went) == 7
    assert all(sum(1 for t in went if start <= t < start + WINDOW_SECONDS) <= 3 for start in went)
    assert budget.waited == 4, "the four past the budget waited for their place"


def test_shard_processes_split_the_tokens_budget():
    halves = [RequestBudget.share(4, 8), RequestBudget.share(4, 8)]
    assert sum(b.per_second for b in halves) <= PER_SECOND
    assert RequestBudget.share(1, 1000).per_second == 1, "a process always has some room"


async def test_a_channels_edits_wait_for_its_pace_and_other_channels_do_not():
    edits = ChannelEdits()
    assert [edits.wait(1, old=False) for _ in range(5)] == [0.0] * 5
    assert edits.wait(1, old=False) > 0, "the sixth edit in five seconds waits"
    assert edits.wait(2, old=False) == 0.0, "another channel has its own pace"
    assert [edits.wait(3, old=True) for _ in range(4)] == [0.0] * 4
    assert edits.wait(3, old=True) > 5, "old messages have a stricter cap"


def test_what_can_wait_takes_turns_and_keeps_its_turn_while_it_waits():
    turns = Turns(per_second=4, burst=1)
    assert turns.wait("a", now=10.0) == 0.0, "a free turn goes at once"
    waits = [turns.wait(key, now=10.0) for key in "bcd"]
    assert waits[0] > 0, "the others wait"
    assert waits == sorted(waits), "in the order they asked"
    assert turns.wait("c", now=10.0) == waits[1], "asking again keeps the turn (and takes no other)"
    assert turns.wait("c", now=10.0 + waits[1]) == 0.0, "its turn has come"
    assert turns.wait("e", now=10.0 + waits[1]) > 0, "the next key waits behind d"
    assert turns.wait("f", now=1.0) == 0.0, "a clock that went back (another clock) starts afresh"


def test_what_can_wait_has_a_fifth_of_the_budget():
    assert RequestBudget(45).can_wait.interval == 1 / (45 * CAN_WAIT_SHARE)
    assert RequestBudget.share(1, 1000).can_wait.interval == 1.0, "at least one a second"


def test_a_few_turns_go_at_once_after_a_quiet_moment_and_the_rest_at_the_pace():
    turns = Turns(per_second=4, burst=3)
    waits = [turns.wait(key, now=10.0) for key in "abcdef"]
    assert waits[:3] == [0.0, 0.0, 0.0], "the burst goes at once"
    assert waits[3] > 0, "the rest wait"
    assert waits[3:] == sorted(waits[3:]), "in the order they asked"
    assert abs(waits[5] - waits[3] - 2 * 0.25) < 1e-6, "then one every quarter of a second"
