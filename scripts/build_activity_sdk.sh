#!/bin/sh
# Builds the Activity page's copy of Discord's Embedded App SDK (@discord/embedded-app-sdk, MIT) as
# one ES module: bot/features/activity/static/vendor/discord-sdk.mjs, with its licence and its
# version and SHA-256 in vendor/VERSION (tests/bot/test_activity_page.py checks the committed file
# against them). Needs npm; the bot and CI do not: the built file is committed.
set -eu
SDK_VERSION=2.5.0
ESBUILD_VERSION=0.24.0
VENDOR="$(cd "$(dirname "$0")/.." && pwd)/bot/features/activity/static/vendor"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
npm init -y >/dev/null
npm install --no-audit --no-fund "@discord/embedded-app-sdk@$SDK_VERSION" "esbuild@$ESBUILD_VERSION" >/dev/null
printf 'export { DiscordSDK, DiscordSDKMock, patchUrlMappings } from "@discord/embedded-app-sdk";\n' > entry.mjs
npx esbuild entry.mjs --bundle --format=esm --minify --legal-comments=none --outfile="$VENDOR/discord-sdk.mjs"
cp node_modules/@discord/embedded-app-sdk/LICENSE.md "$VENDOR/LICENSE.md"
# The SDK's dependencies bundled into the same file, each with its own licence.
for dependency in big-integer decimal.js-light eventemitter3 lodash.transform uuid zod; do
    printf '\n---- %s (bundled) ----\n\n' "$dependency"
    cat node_modules/"$dependency"/LICEN[CS]E* 2>/dev/null || cat node_modules/"$dependency"/*LICEN[CS]E*
done >> "$VENDOR/LICENSE.md"
HASH="$(sha256sum "$VENDOR/discord-sdk.mjs" | cut -d' ' -f1)"
printf '@discord/embedded-app-sdk %s\nesbuild %s\nsha256 %s\n' "$SDK_VERSION" "$ESBUILD_VERSION" "$HASH" > "$VENDOR/VERSION"
echo "built $VENDOR/discord-sdk.mjs ($HASH)"
