"""Runs picture rendering off the event loop, in a small bounded pool of threads."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import discord

from render.theme import Picture


class RenderPool:
    def __init__(self, workers: int = 2):
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="render")
        # Bound the queue too, so a burst of clicks cannot pile up unbounded work.
        self._slots = asyncio.Semaphore(workers * 4)

    async def render(self, func: Callable[..., Picture], *args: Any) -> Picture:
        async with self._slots:
            return await asyncio.get_running_loop().run_in_executor(self._executor, func, *args)

    def shutdown(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)


def as_file(picture: Picture) -> discord.File:
    """A Discord attachment with the picture's text alternative as its description."""
    import io

    return discord.File(io.BytesIO(picture.png), filename=picture.filename, description=picture.description[:1000])
