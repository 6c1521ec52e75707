// One view of the board (bot/features/activity/board.py's view): the picture with the step's
// options drawn over it where the renderer drew them, the options with no place as buttons, the
// game's own buttons (Octagion's lobby and Got it!), and Octagion's round clock, the team's variant
// so far, the field to type it and the last round's result. ``send`` carries what the member does
// to the server.
const $ = (id) => document.getElementById(id);
let clock = null;
let chosen = new Set(); // the options ticked of a step of several at once
let played = ""; // the picks already sent to be played, so a view is not played twice
let raceRound = null; // the Octagion round the field is typed for: a new round empties it
const WATCHING = "You are not playing in this game: you can watch it here, and only its players move.";
const WAITING = "It is not your turn: the board offers your move when it is.";
const TYPE_IT = "Type your team's variant in the field below the board and press Send.";

export function show(view, send) {
  $("title").textContent = view.title;
  const status = view.status.startsWith(`${view.title}\n`) ? view.status.slice(view.title.length + 1) : view.status;
  const watching = view.seat === null && !view.buttons.length; // a lobby's Join is not watching
  $("status").textContent = status + (watching ? "\nYou are watching this game." : "");
  if (view.notice) message(view.notice);
  $("result").textContent = view.result || ""; // Octagion's last round, once it is over
  $("result").hidden = !view.result;
  const board = $("board");
  board.hidden = !view.picture;
  if (view.picture) {
    $("picture").src = `data:image/png;base64,${view.picture}`;
    $("picture").alt = view.description;
  }
  $("regions").replaceChildren();
  $("buttons").replaceChildren();
  $("prompt").textContent = "";
  chosen = new Set();
  for (const own of view.buttons) { // the game's own (Octagion's lobby, Got it!): as in Discord
    button(own.label, "", () => send({ type: "button", key: own.key }));
  }
  showRace(view, send);
  if (view.ready && view.picks.length) {
    const key = `${view.version}:${view.picks.join("|")}`;
    if (played !== key) {
      played = key;
      send({ type: "act", picks: view.picks, version: view.version });
    }
    return;
  }
  const why = view.seat === null ? WATCHING : view.race ? TYPE_IT : WAITING;
  $("board").onclick = view.step ? null : () => message(why);
  if (!view.step) return;
  $("prompt").textContent = view.step.prompt;
  if (view.ready) { // the one possible move: the member plays it
    button("Play it", "play", () => send({ type: "act", picks: [], version: view.version }));
    return;
  }
  for (const option of view.step.options) {
    const choose = (element) => {
      if (!view.step.many) return send({ type: "pick", picks: [...view.picks, option.key] });
      if (chosen.has(option.key)) chosen.delete(option.key); else chosen.add(option.key);
      element.classList.toggle("chosen", chosen.has(option.key));
    };
    if (option.region) region(option, view, choose);
    else button(option.label, "", choose);
  }
  if (view.step.many) {
    button("Done: these", "play", () => send({ type: "pick", picks: [...view.picks, [...chosen].sort().join("+")] }));
  }
  if (view.picks.length) button("Start the move again", "", () => send({ type: "pick", picks: [] }));
}

function region(option, view, choose) {
  const [x, y, w, h] = option.region;
  const element = document.createElement("button");
  element.className = "region";
  element.title = option.label;
  element.setAttribute("aria-label", option.label);
  element.dataset.key = option.key;
  Object.assign(element.style, {
    left: `${(100 * x) / view.width}%`, top: `${(100 * y) / view.height}%`,
    width: `${(100 * w) / view.width}%`, height: `${(100 * h) / view.height}%`,
  });
  element.addEventListener("click", () => choose(element));
  $("regions").append(element);
}

function button(label, kind, click) {
  const element = document.createElement("button");
  element.textContent = label;
  if (kind) element.className = kind;
  element.addEventListener("click", () => click(element));
  $("buttons").append(element);
}

function showRace(view, send) {
  const form = $("race");
  clearInterval(clock);
  form.hidden = !view.race || view.seat === null;
  if (!view.race) return;
  if (view.race.round !== raceRound) $("variant").value = ""; // a variant of the last round's word
  raceRound = view.race.round;
  form.onsubmit = (event) => { // with its round: the bot refuses it if that round is over when it arrives
    event.preventDefault();
    send({ type: "race", answer: $("variant").value, round: view.race.round });
  };
  $("answer").textContent = view.race.answer || "";
  const tick = () => {
    const left = view.race.deadline ? Math.max(0, Math.round(view.race.deadline - Date.now() / 1000)) : null;
    $("clock").textContent = left === null ? `Round ${view.race.round}` : `Round ${view.race.round}: ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")} left`;
  };
  tick();
  clock = setInterval(tick, 1000);
}

export function message(text) {
  const element = $("message");
  element.textContent = text;
  element.hidden = !text;
}
