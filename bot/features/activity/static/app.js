// The Activity's page: sign in, choose a game of the channel (or the one the address names),
// then one WebSocket to the bot for that board: views in, picks and moves out. A dropped socket
// (a bot restart) reconnects by itself, saying the last version seen.
import { message, show } from "./board.js";
import { chosenSession, signIn } from "./signin.js";

const $ = (id) => document.getElementById(id);
let signedIn = null;
let socket = null;
let version = null;
let retry = 0;
let dropped = false; // the socket closed: the page says it reconnects until a view comes again
const DROPPED = "The connection to the bot dropped: reconnecting…";

async function main() {
  try {
    signedIn = await signIn();
  } catch (error) {
    $("status").textContent = `Could not sign in: ${error.message}`;
    return;
  }
  const session = chosenSession() || (await pickGame());
  if (session) connect(Number(session));
}

async function pickGame() {
  const answer = await fetch("api/games", { headers: { Authorization: `Bearer ${signedIn.token}` } });
  const listed = await answer.json().catch(() => ({ games: [] }));
  const games = listed.games || [];
  $("status").textContent = games.length ? "Choose a game of this channel:" : "No game runs in this channel yet: start one with a slash command.";
  const list = $("games");
  list.hidden = false;
  list.replaceChildren();
  return new Promise((resolve) => {
    for (const game of games) {
      const element = document.createElement("button");
      element.textContent = `${game.title || game.game}: ${game.players.join(" vs ")}`;
      element.addEventListener("click", () => { list.hidden = true; resolve(game.session); });
      list.append(element);
    }
  });
}

function send(said) {
  if (said.type !== "act") message("");
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(said));
  else message(DROPPED);
}

function connect(session) {
  const url = new URL("api/ws", location.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(url);
  socket.onopen = () => {
    retry = 0;
    socket.send(JSON.stringify({ type: "hello", token: signedIn.token, session, since: version }));
  };
  socket.onmessage = (event) => {
    const said = JSON.parse(event.data);
    if (said.type === "view") {
      version = said.version;
      if (dropped) message("");
      dropped = false;
      show(said, send);
    } else if (said.type === "refused") {
      message(said.reason);
    } else if (said.type === "error") {
      message(said.reason);
      signedIn = null; // an expired sign-in: a new one before reconnecting
    }
  };
  socket.onclose = async () => {
    if (signedIn !== null) message(DROPPED); // else the error's reason stays shown
    dropped = true;
    retry = Math.min(retry + 1, 5);
    await new Promise((resolve) => setTimeout(resolve, 500 * 2 ** retry));
    if (signedIn === null) {
      try { signedIn = await signIn(); } catch (error) { message(`Could not sign in again: ${error.message}`); return; }
    }
    connect(session);
  };
}

main();
