"""Small words members read (issue #36, item 16): `/notify on|off` as README says it, ..."""

from __future__ import annotations

from bot.dev.world import private_texts


async def test_notify_takes_on_or_off(world):
    [option] = world.bot.tree.get_command("notify").to_dict(world.bot.tree)["options"]
    assert [choice["value"] for choice in option["choices"]] == ["on", "off"]
    off = await world.bo.slash(world.channel, "notify", pings="off")
    assert private_texts(off) == ['🔕 No more "your move" pings in this server; turn clock warnings still mention you.']
    assert not await world.platform.threads.wants_notices(world.guild.id, world.bo.id)
    on = await world.bo.slash(world.channel, "notify", pings="on")
    assert private_texts(on)[0].startswith("🔔 I will ping you")
    assert await world.platform.threads.wants_notices(world.guild.id, world.bo.id)
