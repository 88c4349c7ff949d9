// The host's pages: create a session, show its code and QR code, watch the lobby and every player's stream and
// bounces live on the dashboard socket (docs/PROTOCOL.md, "WebSocket"), start and end the game.
import { $, api, face, markPainted, modeNames, say, serveNames } from "./api.js";
import { SessionSocket } from "./socket.js";

const PX_PER_SECOND = 60;
const MAX_MARKS = 500;
const state = {
  token: sessionStorage.getItem("pongd.hostUser") || "",
  session: JSON.parse(sessionStorage.getItem("pongd.hosted") || "null"),
  socket: null,
  lobby: null,
  cards: new Map(),   // playerId → {root, parts}
  rates: new Map(),   // playerId → the last `stream` report
};

function show(name) {
  for (const screen of ["create", "session", "ended"]) $(`screen-${screen}`).hidden = screen !== name;
  const title = document.querySelector(`#screen-${name} h1`);
  if (title) title.focus({ preventScroll: true });
  markPainted(`host:${name}`);
}

const chosen = (name) => document.querySelector(`input[name="${name}"]:checked`).value;

async function guestToken() {
  const answer = await api("POST", "/auth/guest", { body: {} });
  state.token = answer.token;
  sessionStorage.setItem("pongd.hostUser", state.token);
  return state.token;
}

$("create-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const button = $("create");
  button.disabled = true;
  say($("create-error"), "");
  try {
    if (!state.token) await guestToken();
    const name = $("host-name").value.trim();
    const body = { mode: chosen("mode"), pointsToWin: Number(chosen("points")), serveRule: chosen("serve") };
    let created;
    try {
      if (name) await api("POST", "/users/profile", { token: state.token, body: { displayName: name } });
      created = await api("POST", "/sessions", { token: state.token, body });
    } catch (error) {
      if (error.status !== 401) throw error;
      await guestToken();   // a guest deleted after its last session: a new one
      if (name) await api("POST", "/users/profile", { token: state.token, body: { displayName: name } });
      created = await api("POST", "/sessions", { token: state.token, body });
    }
    state.session = created;
    sessionStorage.setItem("pongd.hosted", JSON.stringify(created));
    openSession();
  } catch (error) {
    say($("create-error"), error.retryAfter ? `${error.message} (${error.retryAfter} s)` : error.message);
  } finally {
    button.disabled = false;
  }
});

function openSession() {
  const { code, displayCode, joinURL, hostToken } = state.session;
  $("code").textContent = displayCode;
  $("code").setAttribute("aria-label", `Session code ${displayCode.split("").join(" ")}`);
  const url = new URL(joinURL, location.href).toString();
  $("join-url").textContent = url;
  // The QR code of the join URL, drawn by pongd; if it cannot be had, the code and the URL above it remain.
  $("qr").hidden = false;
  $("qr").addEventListener("error", () => { $("qr").hidden = true; }, { once: true });
  $("qr").src = `/sessions/${code}/qr.svg`;
  $("qr").alt = `QR code to join session ${displayCode}: ${url}`;
  $("players").innerHTML = "";
  state.cards.clear();
  state.rates.clear();
  show("session");
  state.socket = new SessionSocket({
    path: `/sessions/${code}/dashboard`, token: hostToken, hello: null,
    onMessage: received,
    onLost: () => { $("dash-dot").className = "dot warn"; $("dash-state").textContent = "Reconnecting…"; },
    onBack: () => {},
    onFinal: (closeCode) => ended(closeCode === 4000 ? "The session is over; its code is free again." : "This session is no longer available."),
  });
  state.socket.connect();
}

function received(message) {
  switch (message.type) {
    case "welcome": lobbyChanged(message.lobby); break;
    case "lobby": lobbyChanged(message); break;
    case "stream": state.rates.set(message.playerId, message); updateCard(message.playerId); break;
    case "bounce": bounce(message); break;
    case "sessionEnded": ended(message.reason === "idleExpired" ? "The session ended after two hours without play." : "You ended the session; its code is free again."); break;
  }
}

function lobbyChanged(lobby) {
  state.lobby = lobby;
  $("dash-dot").className = "dot";
  $("dash-state").textContent = lobby.state === "playing" ? "Game in progress" : lobby.state === "ended" ? "Ended" : "Lobby open";
  $("game-mode").textContent = modeNames[lobby.game.mode] || lobby.game.mode;
  $("game-settings").textContent = `First to ${lobby.game.pointsToWin} · ${serveNames[lobby.game.serveRule] || lobby.game.serveRule}`;
  $("player-count").textContent = String(lobby.players.length);
  const seated = new Set(lobby.players.map((p) => p.playerId));
  for (const [id, card] of state.cards) if (!seated.has(id)) { card.root.remove(); state.cards.delete(id); }
  for (const player of lobby.players) updateCard(player.playerId);
  $("no-players").hidden = lobby.players.length > 0;
  const ready = lobby.players.filter((p) => p.ready && p.connection === "connected").length;
  const startable = lobby.state === "waiting" && ready >= 2;
  $("start").disabled = !startable;
  $("start").textContent = lobby.state === "playing" ? "Game Started" : "Start Game";
  $("start-hint").textContent = lobby.state === "playing" ? "Playing: bounces appear on each player's timeline"
    : startable ? `${ready} players ready` : `Waiting for at least 2 ready players (${ready} ready)`;
}

function card(playerId) {
  let entry = state.cards.get(playerId);
  if (entry) return entry;
  const root = document.createElement("div");
  root.className = "dashplayer";
  root.dataset.playerId = playerId;
  root.innerHTML = '<div class="row"><span class="who"></span><div class="grow"><h2 class="name"></h2><p class="small muted line"></p></div></div>'
    + '<div class="stats"></div><div class="timeline" tabindex="0"><div class="track"><div class="lane table"></div><div class="lane racket"></div></div></div>';
  const parts = { who: root.querySelector(".who"), name: root.querySelector(".name"), line: root.querySelector(".line"),
                  stats: root.querySelector(".stats"), timeline: root.querySelector(".timeline"), track: root.querySelector(".track") };
  parts.timeline.setAttribute("aria-label", "Bounce timeline");
  $("players").append(root);
  entry = { root, parts, photo: undefined, last: 0 };
  state.cards.set(playerId, entry);
  return entry;
}

function chip(text, tone) {
  const span = document.createElement("span");
  span.className = `badge ${tone || ""}`;
  span.textContent = text;
  return span;
}

const tone = (s) => s === "live" ? "ok" : s === "failed" ? "fail" : s === "starting" ? "warn" : "";

function updateCard(playerId) {
  const player = state.lobby && state.lobby.players.find((p) => p.playerId === playerId);
  if (!player) return;
  const { parts } = card(playerId);
  const entry = state.cards.get(playerId);
  if (entry.photo !== player.photoURL || !parts.who.firstChild) {
    entry.photo = player.photoURL;
    parts.who.replaceChildren(face(player.name, player.photoURL, 40));
  }
  parts.name.textContent = player.name || "Player";
  parts.line.textContent = [player.connection === "connected" ? "Connected" : "Reconnecting",
                            player.ready ? "Ready" : "Not ready"].join(" · ");
  const report = state.rates.get(playerId);
  const muted = player.stream.muted;
  parts.stats.replaceChildren(
    chip(`Video ${player.stream.video}${muted.video ? " (muted)" : ""}`, tone(player.stream.video)),
    chip(`Audio ${player.stream.audio}${muted.audio ? " (muted)" : ""}`, tone(player.stream.audio)),
    chip(player.grade ? `Grade ${player.grade}` : "Not tested", player.grade === "good" ? "ok" : player.grade === "fair" ? "warn" : player.grade ? "fail" : ""),
    chip(report ? `${report.uploadKbps.toFixed(0)} kb/s` : "— kb/s"),
    ...(report && report.resolution ? [chip(`${report.resolution}${report.fps ? ` · ${report.fps} fps` : ""}`)] : []),
  );
}

/** A bounce on its player's timeline: x is its stream time; the timeline follows the newest unless scrolled back. */
function bounce(message) {
  const entry = state.cards.get(message.playerId) || (state.lobby && card(message.playerId));
  if (!entry) return;
  const { timeline, track } = entry.parts;
  const following = timeline.scrollLeft + timeline.clientWidth >= timeline.scrollWidth - 24;
  const dot = document.createElement("span");
  dot.className = `mark ${message.kind}`;
  dot.dataset.test = "dashboard-bounce";
  dot.dataset.playerId = message.playerId;
  dot.dataset.streamTime = String(message.streamTime);
  dot.dataset.kind = message.kind;
  dot.title = `${message.kind} at ${message.streamTime.toFixed(3)} s (confidence ${message.confidence})`;
  dot.style.left = `${message.streamTime * PX_PER_SECOND}px`;
  track.append(dot);
  while (track.querySelectorAll(".mark").length > MAX_MARKS) track.querySelector(".mark").remove();
  entry.last = Math.max(entry.last, message.streamTime);
  track.style.width = `${Math.max(timeline.clientWidth, (entry.last + 1) * PX_PER_SECOND)}px`;
  if (following) timeline.scrollLeft = timeline.scrollWidth;
}

async function control(command) {
  const button = $(command);
  button.disabled = true;
  say($("control-error"), "");
  try {
    await api("POST", `/sessions/${state.session.code}/${command}`, { token: state.session.hostToken });
    if (command === "end") ended("You ended the session; its code is free again.");
  } catch (error) {
    say($("control-error"), error.message);
    if (error.code === "session_not_found") ended("This session is no longer available.");
  } finally {
    button.disabled = command === "start" ? !!state.lobby && state.lobby.state !== "waiting" : false;
  }
}
$("start").addEventListener("click", () => control("start"));
$("end").addEventListener("click", () => control("end"));

function ended(text) {
  if (state.socket) state.socket.stop();
  state.socket = null;
  sessionStorage.removeItem("pongd.hosted");
  state.session = null;
  $("ended-text").textContent = text;
  show("ended");
}
$("again").addEventListener("click", () => show("create"));

// A reload keeps the session: its code and host token are in this tab's storage.
if (state.session) {
  api("GET", `/sessions/${state.session.code}`, { token: state.session.hostToken })
    .then(() => openSession())
    .catch(() => { sessionStorage.removeItem("pongd.hosted"); state.session = null; show("create"); });
} else {
  show("create");
}
window.pongHost = state;
