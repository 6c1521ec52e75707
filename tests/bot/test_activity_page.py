"""The Activity's page (bot/features/activity/static/) as committed: its copy of Discord's Embedded
App SDK is the file scripts/build_activity_sdk.sh built (its recorded SHA-256 and version; CI has no
npm to build it again), licensed, every URL the page uses is relative (Discord's /.proxy/ mapping),
and the package ships the page."""

from __future__ import annotations

import hashlib
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "bot" / "features" / "activity" / "static"
VENDOR = STATIC / "vendor"


def recorded() -> dict[str, str]:
    return dict(line.split(" ", 1) for line in (VENDOR / "VERSION").read_text().splitlines())


def test_the_vendored_sdk_is_the_build_recorded():
    built = hashlib.sha256((VENDOR / "discord-sdk.mjs").read_bytes()).hexdigest()
    assert built == recorded()["sha256"], "rebuild with scripts/build_activity_sdk.sh"
    script = (ROOT / "scripts" / "build_activity_sdk.sh").read_text()
    assert f"SDK_VERSION={recorded()['@discord/embedded-app-sdk']}" in script
    assert f"ESBUILD_VERSION={recorded()['esbuild']}" in script
    licence = (VENDOR / "LICENSE.md").read_text()
    assert "MIT" in licence
    assert "zod (bundled)" in licence


def test_the_page_names_no_absolute_url():
    for page in [*STATIC.glob("*.html"), *STATIC.glob("*.js")]:
        text = page.read_text()
        assert not re.search(r"""["'`](https?:)?//""", text), f"{page.name} names another host"
        assert not re.search(r"""(src|href)="/|fetch\(\s*["'`]/|new URL\(\s*["'`]/""", text), page.name


def test_the_sdk_module_exports_what_the_page_imports():
    sdk = (VENDOR / "discord-sdk.mjs").read_text()
    exported = re.search(r"export\s*\{([^}]*)\}\s*;?\s*$", sdk).group(1)
    names = {part.split(" as ")[-1].strip() for part in exported.split(",")}
    assert {"DiscordSDK", "DiscordSDKMock"} <= names


def test_the_package_ships_the_page():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    shipped = data["bot.features.activity"]
    for path in [*STATIC.glob("*"), *VENDOR.glob("*")]:
        if path.is_file():
            relative = path.relative_to(STATIC.parent).as_posix()
            assert any(Path(relative).match(pattern) for pattern in shipped), relative
