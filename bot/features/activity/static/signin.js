// Who is looking: Discord's Embedded App SDK signs the member in (ready, authorize, our
// api/token, authenticate, our api/session); in the playground its mock stands in, the member
// named by the page's address (?session=…&user=…&guild=…&channel=…). Every URL is relative, so
// the page works under Discord's /.proxy/ mapping.
import { DiscordSDK, DiscordSDKMock } from "./vendor/discord-sdk.mjs";

const query = new URLSearchParams(location.search);
const SCOPES = ["identify", "guilds", "guilds.members.read"];

export async function post(path, body, token) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const answer = await fetch(path, { method: "POST", headers, body: JSON.stringify(body) });
  const said = await answer.json().catch(() => ({}));
  if (!answer.ok) throw new Error(said.error || `The server answered ${answer.status}.`);
  return said;
}

export async function signIn() {
  if (query.get("mock") || !query.get("frame_id")) { // Discord opens an Activity with its frame_id
    const sdk = new DiscordSDKMock("0", query.get("guild"), query.get("channel"), null);
    await sdk.ready();
    return post("api/session", { mock_user_id: query.get("user"), guild_id: sdk.guildId, channel_id: sdk.channelId });
  }
  // An Activity is served from https://<application id>.discordsays.com.
  const clientId = query.get("client_id") || location.hostname.split(".")[0];
  const sdk = new DiscordSDK(clientId);
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: clientId, response_type: "code", state: "", prompt: "none", scope: SCOPES,
  });
  const { access_token: accessToken } = await post("api/token", { code });
  await sdk.commands.authenticate({ access_token: accessToken });
  return post("api/session", { access_token: accessToken, guild_id: sdk.guildId, channel_id: sdk.channelId });
}

export const chosenSession = () => query.get("session");
