// The player's journey (../shared/spec/player-journey.md) over pongd's protocol (docs/PROTOCOL.md): code entry,
// sign-in, profile, permissions, stream setup with the connection test and the readiness checklist, the lobby with
// live bounces, and the error overlays. One page; each screen is a <section>.
import { $, api, ApiError, codeCharacters, codeCharactersValid, displayCode, face, mark, markPainted, modeNames,
         say, serveNames } from "./api.js";
import { SessionSocket } from "./socket.js";
import { audioConstraints, canEncode, MediaPipeline, videoSize } from "./media.js";
import { startConnectionTest } from "./probe.js";
import { setUpAuth } from "./auth.js";
import { CALLBACK_PATH, finishSocialSignIn } from "./social.js";
import { setUpPhoto } from "./photo.js";

const state = {
  code: "",               // ABC234
  token: sessionStorage.getItem("pongd.token") || "",
  me: null,               // {userId, displayName, photoURL, guest}
  playerId: null,
  resumeToken: null,
  socket: null,
  lobby: null,
  readiness: null,
  permissions: { camera: "pending", microphone: "pending", notifications: false },
  stream: null,           // the MediaStream from getUserMedia
  withVideo: true,
  withAudio: true,
  streaming: false,
  streamConfig: { quality: "720p", fps: 30 },
  lastTest: null,
  wantsReady: false,      // the person pressed Ready: sent again whenever the server allows it after a setback
  ended: false,
  bounceCount: 0,
};
const pipeline = new MediaPipeline({
  send: (bytes) => state.socket ? state.socket.sendBinary(bytes) : false,
  sendJSON: (message) => state.socket ? state.socket.send(message) : false,
  onError: (kind, error) => console.warn(`${kind} encoder`, error),
});

// ---- Screens ------------------------------------------------------------------------------------------------

const screens = ["join", "auth", "profile", "permissions", "stream", "lobby"];
let current = null;

/** Shows one screen, moves the focus to its title for screen readers, and marks when it was painted. */
function show(name) {
  if (current === name) return;
  for (const screen of screens) $(`screen-${screen}`).hidden = screen !== name;
  current = name;
  const title = document.querySelector(`#screen-${name} h1`);
  if (title && name !== "join") title.focus({ preventScroll: true });
  window.scrollTo(0, 0);
  markPainted(name);
}

// ---- 1. Code entry ------------------------------------------------------------------------------------------

const codeInput = $("code");

/** Formats the code as typed and says whether it can be one; returns it when complete, else null. */
function codeTyped({ keepError = false } = {}) {
  const chars = codeCharacters(codeInput.value);
  const shown = displayCode(chars);
  if (codeInput.value !== shown) codeInput.value = shown;
  const valid = codeCharactersValid(chars);
  codeInput.classList.toggle("invalid", !valid);
  codeInput.classList.toggle("valid", valid && chars.length === 6);
  $("code-ok").hidden = !(valid && chars.length === 6);
  if (!keepError || !valid) say($("code-error"), valid ? "" : "Invalid code");
  $("join-submit").disabled = !(valid && chars.length === 6);
  return valid && chars.length === 6 ? chars : null;
}
codeInput.addEventListener("input", () => { codeTyped(); if (!window.pongMarks || !window.pongMarks.some((m) => m.name === "code:typed")) mark("code:typed"); });

$("join-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const code = codeTyped();
  if (!code) return;
  const button = $("join-submit");
  button.disabled = true;
  button.innerHTML = '<span class="spinner" aria-hidden="true"></span> Joining session...';
  try {
    // The summary tells a live code from a dead one before anyone signs in.
    await api("GET", `/sessions/${code}`);
    state.code = code;
    history.replaceState(null, "", `/join/${code}`);
    await afterCode();
  } catch (error) {
    say($("code-error"), error.code === "session_not_found" ? "Session not found or expired"
                         : error.code === "invalid_session_code" ? "Invalid code" : error.message);
    codeInput.classList.add("invalid");
  } finally {
    button.textContent = "Join Session";
    button.disabled = !codeTyped({ keepError: true });
  }
});

/** After a live code: sign in unless this tab already has a valid token. */
async function afterCode() {
  if (state.token) {
    try {
      state.me = await api("GET", "/users/me", { token: state.token });
      return showProfile();
    } catch { signOut(); }
  }
  show("auth");
}

function signOut() {
  state.token = "";
  state.me = null;
  sessionStorage.removeItem("pongd.token");
}

// ---- 2. Sign-in ---------------------------------------------------------------------------------------------

/** After any sign-in: the account's profile, then the profile step. */
async function signedIn(token) {
  state.token = token;
  sessionStorage.setItem("pongd.token", token);
  state.me = await api("GET", "/users/me", { token });
  showProfile();
}

setUpAuth({ signedIn, close: () => show("join"), code: () => state.code });

/** Back from a provider (/auth/callback): the code joined before leaving, then the profile step, or the sign-in
 *  screen saying what went wrong. */
async function returnFromProvider() {
  show("auth");
  $("social").hidden = false;
  say($("social-status"), "Signing in...");
  const outcome = await finishSocialSignIn();
  say($("social-status"), "");
  state.code = outcome.code;
  codeInput.value = displayCode(outcome.code);
  codeTyped();
  if (!outcome.code) {
    show("join");
    return say($("code-error"), outcome.error || "");
  }
  if (outcome.token) {
    try { return await signedIn(outcome.token); } catch (error) { outcome.error = error.message; }
  }
  show("auth");
  $("social").hidden = false;
  say($("social-error"), outcome.error);
}

// ---- 3. Profile ---------------------------------------------------------------------------------------------

const photo = setUpPhoto();
const nameInput = $("name");
const segmenter = "Segmenter" in Intl ? new Intl.Segmenter(undefined, { granularity: "grapheme" }) : null;
const graphemes = (text) => segmenter ? [...segmenter.segment(text)].length : [...text].length;

function nameTyped() {
  const name = nameInput.value.trim();
  const count = graphemes(name);
  $("name-count").textContent = `${count}/20`;
  say($("name-error"), count > 20 ? "Display name must be 1 to 20 characters" : "");
  $("profile-submit").disabled = count < 1 || count > 20;
}
nameInput.addEventListener("input", nameTyped);

function showProfile() {
  const me = state.me || {};
  nameInput.value = me.displayName || "";
  photo.showExisting(me.photoURL);
  $("profile-submit").textContent = me.displayName ? "Looks good, continue" : "Continue";
  nameTyped();
  show("profile");
}

$("profile-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const button = $("profile-submit");
  button.disabled = true;
  say($("name-error"), "");
  try {
    const body = { displayName: nameInput.value.trim() };
    const picture = photo.changedPhoto();
    if (picture) body.photo = picture;
    state.me = await api("POST", "/users/profile", { token: state.token, body });
    photo.stopCamera();
    const seat = await api("POST", `/sessions/${state.code}/join`, { token: state.token });
    state.playerId = seat.playerId;
    state.resumeToken = seat.resumeToken;
    openSocket(seat.websocketURL);
  } catch (error) {
    if (error.status === 401) { signOut(); return show("auth"); }
    say($("name-error"), error.message);
    button.disabled = false;
  }
});

// ---- The session socket -------------------------------------------------------------------------------------

function openSocket(path) {
  if (state.socket) state.socket.stop();
  state.socket = new SessionSocket({
    path, token: state.token,
    hello: () => ({ type: "hello", resumeToken: state.resumeToken }),
    onMessage: received,
    onLost: (attempt, code, wait) => {
      if (state.ended) return;
      overlay("ov-lost", true);
      say($("ov-lost-text"), attempt === 0 ? "Trying to reconnect..." : `Trying to reconnect... (attempt ${attempt + 1}, next in ${Math.ceil(wait / 1000)} s)`);
      $("conn-dot").className = "dot warn";
      $("conn-text").textContent = "Reconnecting…";
    },
    onBack: () => {
      overlay("ov-lost", false);
      $("conn-dot").className = "dot";
      $("conn-text").textContent = "Connected to session";
      mark("socket:resumed");
    },
    onFinal: (code, reason) => finalClose(code, reason),
  });
  state.socket.connect();
}

let welcomed = false;

function received(message) {
  switch (message.type) {
    case "welcome":
      state.playerId = message.playerId;
      state.resumeToken = message.resumeToken;
      lobbyChanged(message.lobby);
      if (!welcomed) {
        welcomed = true;
        if (battery) state.socket.send({ type: "battery", ...batteryNow() });
        show("permissions");
      } else {
        // Back after a drop: tell the server what it may have missed. `ready` waits for a `readiness` that can be
        // ready (readinessChanged): after a restart or a move to another node the tracks are `starting` until the
        // next frames, and a `ready` sent now would be refused (not_ready), which drops the person's wish.
        if (state.permissions.camera !== "pending") sendPermissions();
      }
      break;
    case "lobby": lobbyChanged(message); break;
    case "readiness": readinessChanged(message); break;
    case "probe.ping": case "probe.upload": case "connectionTest": probe.handle(message); break;
    case "bounce": bounce(message); break;
    case "stream": streamReport(message); break;
    case "sessionEnded": sessionEnded(message.reason); break;
    case "error": socketError(message); break;
  }
}

function socketError(message) {
  if (message.code === "not_ready") state.wantsReady = false;
  if (["out_of_order", "not_ready", "test_in_progress"].includes(message.code)) say($("test-status"), message.message);
}

function finalClose(code, reason) {
  pipeline.stop();
  overlay("ov-lost", false);
  if (code === 4000 || state.ended) return sessionEnded(state.endReason || "hostEnded");
  if (code === 4002) return goHome("");
  const why = code === 4001 ? "Your sign-in is not valid. Please sign in again"
    : code === 4003 ? "Your seat was freed. Join the session again"
    : code === 4004 ? "This session was opened in another tab" : reason || "Disconnected";
  if (code === 4001) signOut();
  goHome(why);
}

// ---- 4. Permissions -----------------------------------------------------------------------------------------

function badge(element, status) {
  element.className = `badge ${status === "granted" ? "ok" : status === "denied" ? "fail" : "warn"}`;
  element.textContent = status === "granted" ? "✓ Allowed" : status === "denied" ? "✕ Denied" : "Tap to allow";
}

function sendPermissions() {
  state.socket.send({ type: "permissions", camera: state.permissions.camera, microphone: state.permissions.microphone,
                      notifications: state.permissions.notifications });
}

/** Asks for the camera and the microphone together; on a refusal, each alone, to learn which one was denied. */
async function requestDevices() {
  const video = { width: { ideal: 1280 }, height: { ideal: 720 }, frameRate: { ideal: 30 } };
  const results = { camera: "denied", microphone: "denied" };
  let stream = null;
  mark("camera:request");
  try {
    stream = await navigator.mediaDevices.getUserMedia({ video, audio: audioConstraints });
    results.camera = results.microphone = "granted";
  } catch {
    stream = new MediaStream();
    for (const [kind, constraints] of [["camera", { video }], ["microphone", { audio: audioConstraints }]]) {
      try {
        const one = await navigator.mediaDevices.getUserMedia(constraints);
        one.getTracks().forEach((t) => stream.addTrack(t));
        results[kind] = "granted";
      } catch { results[kind] = "denied"; }
    }
  }
  mark("camera:answered");
  return { stream, results };
}

async function allowPermissions() {
  const button = $("perm-allow");
  button.disabled = true;
  say($("perm-error"), "");
  if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
    say($("perm-error"), "This browser cannot use the camera or microphone (a secure https:// page is needed)");
    button.disabled = false;
    return;
  }
  if (state.stream) state.stream.getTracks().forEach((t) => t.stop());
  const { stream, results } = await requestDevices();
  state.stream = stream;
  state.permissions.camera = results.camera;
  state.permissions.microphone = results.microphone;
  badge($("camera-badge"), results.camera);
  badge($("mic-badge"), results.microphone);
  sendPermissions();
  attachPreview();
  button.disabled = false;
  $("camera-denied").hidden = results.camera === "granted";
  $("mic-denied").hidden = results.microphone === "granted" || results.camera !== "granted";
  if (results.camera === "granted" && results.microphone === "granted") {
    state.withVideo = state.withAudio = true;
    showStream();
  } else if (results.camera === "denied" && results.microphone === "denied") {
    say($("perm-error"), "Allow the microphone or the camera to play: both were denied");
  }
}
$("perm-allow").addEventListener("click", allowPermissions);
$("camera-retry").addEventListener("click", allowPermissions);
$("mic-retry").addEventListener("click", allowPermissions);
$("camera-skip").addEventListener("click", () => {
  if (state.permissions.microphone !== "granted") return say($("perm-error"), "Without video the microphone is needed: allow it and try again");
  state.withVideo = false;
  state.withAudio = true;
  showStream();
});
$("mic-continue").addEventListener("click", () => { state.withVideo = true; state.withAudio = false; showStream(); });
$("notify").addEventListener("change", async (event) => {
  let on = event.target.checked;
  if (on && "Notification" in window && Notification.permission !== "granted") {
    on = (await Notification.requestPermission().catch(() => "denied")) === "granted";
    event.target.checked = on;
  }
  state.permissions.notifications = on;
  if (state.socket) sendPermissions();
});
$("perm-why").addEventListener("click", (event) => {
  const text = $("perm-why-text");
  text.hidden = !text.hidden;
  event.target.setAttribute("aria-expanded", String(!text.hidden));
});

// ---- 5. Stream setup ----------------------------------------------------------------------------------------

function attachPreview() {
  const hasVideo = state.stream && state.stream.getVideoTracks().length > 0;
  for (const id of ["preview-video", "lobby-video"]) {
    const video = $(id);
    video.srcObject = hasVideo ? state.stream : null;
    if (hasVideo) video.play().catch(() => {});
  }
  $("preview-empty").hidden = hasVideo;
}
$("preview-video").addEventListener("loadeddata", () => mark("camera:preview"));

function showStream() {
  const track = state.withVideo && state.stream ? state.stream.getVideoTracks()[0] : null;
  const maxFps = track && track.getCapabilities ? (track.getCapabilities().frameRate || {}).max || 30 : 30;
  for (const input of document.querySelectorAll('input[name="fps"]')) {
    input.disabled = !track || Number(input.value) > Math.max(30, maxFps);
  }
  // Without video there is nothing to choose: the settings go, the preview says so.
  for (const id of ["quality", "fps", "fps-note"]) $(id).hidden = !track;
  $("flip").hidden = !track;
  $("preview-video").hidden = !track;
  $("preview-empty").hidden = !!track;
  $("preview").classList.toggle("novideo", !track);
  $("preview-quality").hidden = $("preview-fps").hidden = !track;
  updateBattery();
  show("stream");
}

function chosen(name) {
  return document.querySelector(`input[name="${name}"]:checked`).value;
}
for (const input of document.querySelectorAll('input[name="quality"], input[name="fps"]')) {
  input.addEventListener("change", () => {
    $("preview-quality").textContent = chosen("quality") === "1080p" ? "Full HD" : chosen("quality") === "auto" ? "Auto" : "HD";
    $("preview-fps").textContent = `${chosen("fps")}fps`;
  });
}

let facing = "environment";
$("flip").addEventListener("click", async () => {
  const track = state.stream && state.stream.getVideoTracks()[0];
  if (!track) return;
  facing = facing === "environment" ? "user" : "environment";
  try { await track.applyConstraints({ ...track.getConstraints(), facingMode: facing }); } catch { /* one camera */ }
});

/** Starts (or restarts) the stream with the chosen settings: `streamConfig`, `POST /streams/start`, the encoders. */
async function startStream({ withVideo = state.withVideo } = {}) {
  state.withVideo = withVideo;
  const quality = chosen("quality"), fps = Number(chosen("fps"));
  state.streamConfig = { quality, fps };
  if (!state.socket.send({ type: "streamConfig", quality, fps })) throw new ApiError(0, "network", "Connection error, please try again");
  const resolved = quality === "auto" ? (state.lastTest && state.lastTest.autoQuality) || "720p" : quality;
  let track = withVideo && state.stream ? state.stream.getVideoTracks()[0] : null;
  if (withVideo && (!track || track.readyState !== "live")) {
    // The camera was lost (stopped, unplugged): ask for it again.
    const fresh = await navigator.mediaDevices.getUserMedia({ video: { ...videoSize(resolved), frameRate: { ideal: fps } } });
    state.stream.getVideoTracks().forEach((t) => { state.stream.removeTrack(t); t.stop(); });
    track = fresh.getVideoTracks()[0];
    state.stream.addTrack(track);
    attachPreview();
  }
  if (track) {
    const size = videoSize(resolved);
    await track.applyConstraints({ width: { ideal: size.width }, height: { ideal: size.height }, frameRate: { ideal: fps } }).catch(() => {});
  }
  if (!withVideo && state.stream) state.stream.getVideoTracks().forEach((t) => t.stop());
  if (!canEncode()) throw new ApiError(0, "unsupported", "This browser cannot stream: it lacks WebCodecs");
  const body = await pipeline.prepare(state.stream, withVideo ? state.streamConfig : null, state.withAudio);
  await api("POST", "/streams/start", { token: state.token, body: { sessionCode: state.code, ...body } });
  pipeline.setMuted("video", false);
  pipeline.setMuted("audio", false);
  pipeline.start();
  state.streaming = true;
  mark("stream:started");
}

$("stream-start").addEventListener("click", async () => {
  const button = $("stream-start");
  button.disabled = true;
  say($("stream-status"), "Starting your stream…");
  try {
    await startStream();
    say($("stream-status"), "Stream starting…");
    button.textContent = "Restart Stream";
  } catch (error) {
    say($("stream-status"), error.message || "Unable to start video stream");
  } finally {
    button.disabled = false;
  }
});

// The connection test: the server pings and asks for filler; the result is shown as figures and a grade.
const probe = startConnectionTest({
  socket: () => state.socket,
  started: () => {
    const button = $("test-start");
    button.disabled = true;
    button.innerHTML = '<span class="spinner" aria-hidden="true"></span> Testing...';
    say($("test-status"), "");
  },
  finished: (result) => {
    const button = $("test-start");
    button.disabled = false;
    button.textContent = "Test Again";
    if (result.failure) return say($("test-status"), result.message);
    state.lastTest = result;
    $("fig-upload").innerHTML = "";
    const grade = document.createElement("span");
    grade.className = `grade-${result.grade}`;
    grade.textContent = `${result.uploadMbps} Mbps · ${result.grade}`;
    $("fig-upload").append(grade);
    $("fig-latency").textContent = `${Math.round(result.rttMs.median)} ms (p90 ${Math.round(result.rttMs.p90)})`;
    $("fig-load").textContent = `${Math.round(result.rttUnderLoadMs.median)} ms · jitter ${result.jitterMs} ms`;
    say($("test-status"), "");
    mark("test:done");
  },
});
$("test-start").addEventListener("click", () => probe.start());

// Battery Status API where the browser has it; the server says "Battery level unknown" otherwise.
let battery = null;
if (navigator.getBattery) {
  navigator.getBattery().then((b) => {
    battery = b;
    const send = () => { updateBattery(); if (state.socket && welcomed) state.socket.send({ type: "battery", ...batteryNow() }); };
    b.addEventListener("levelchange", send);
    b.addEventListener("chargingchange", send);
    send();
  }).catch(() => {});
}
function batteryNow() {
  return battery ? { level: Math.round(battery.level * 1000) / 10, charging: battery.charging } : {};
}
function updateBattery() {
  $("fig-battery").textContent = battery ? `${Math.round(battery.level * 100)}%${battery.charging ? " · charging" : ""}` : "unknown";
}

/** The readiness checklist, exactly as the server sends it. */
function readinessChanged(readiness) {
  state.readiness = readiness;
  const list = $("checks");
  list.innerHTML = "";
  for (const check of readiness.checks) {
    const item = document.createElement("li");
    item.className = check.status;
    item.dataset.check = check.id;
    const sign = document.createElement("span");
    sign.className = "mark";
    sign.textContent = check.status === "ok" ? "✓" : check.status === "warn" ? "!" : "✕";
    sign.setAttribute("aria-label", check.status === "ok" ? "OK" : check.status === "warn" ? "Warning" : "Not yet");
    const text = document.createElement("span");
    text.textContent = check.message;
    item.append(sign, text);
    list.append(item);
  }
  $("ready").disabled = !readiness.canBeReady;
  if (readiness.canBeReady && state.wantsReady && !isReady()) state.socket.send({ type: "ready" });
}

$("ready").addEventListener("click", () => {
  const button = $("ready");
  button.disabled = true;
  button.textContent = "Joining game...";
  state.wantsReady = true;
  state.socket.send({ type: "ready" });
});

function myEntry() {
  return state.lobby && state.lobby.players.find((p) => p.playerId === state.playerId);
}
function isReady() {
  const me = myEntry();
  return !!(me && me.ready);
}

// ---- 6. Lobby -----------------------------------------------------------------------------------------------

function lobbyChanged(lobby) {
  state.lobby = lobby;
  if (lobby.state === "ended") state.ended = true;
  const me = myEntry();
  if (me && me.ready && current === "stream") {
    $("ready").textContent = "I'm Ready to Play!";
    mark("ready:confirmed");
    show("lobby");
  }
  renderLobby();
  if (me && state.streaming) {
    const failed = (state.withVideo && me.stream.video === "failed") || (state.withAudio && me.stream.audio === "failed");
    if (failed) streamFailed(me.stream.video === "failed" ? "video" : "audio");
  }
}

function status(player) {
  if (player.connection === "reconnecting") return "Reconnecting";
  const parts = [player.ready ? "✓ Ready" : "Not ready"];
  if (player.stream.video === "live") parts.push("streaming");
  else if (player.stream.video === "failed" || player.stream.audio === "failed") parts.push("stream error");
  return parts.join(" · ");
}

function renderLobby() {
  const lobby = state.lobby;
  if (!lobby) return;
  $("lobby-code").textContent = lobby.displayCode;
  const me = myEntry();
  const you = $("you");
  you.innerHTML = "";
  if (me) {
    const row = document.createElement("div");
    row.className = "row";
    row.dataset.test = "lobby-player";
    row.dataset.playerId = me.playerId;
    const text = document.createElement("div");
    text.className = "grow";
    const name = document.createElement("h2");
    name.textContent = `${me.name || "You"} (you)`;
    const line = document.createElement("p");
    line.className = "small muted";
    line.textContent = status(me);
    const media = document.createElement("p");
    media.className = "small muted";
    media.textContent = [
      me.stream.video === "off" ? "No video" : me.stream.muted.video ? "Video muted" : `Video ${me.stream.video}`,
      me.stream.audio === "off" ? "No audio" : me.stream.muted.audio ? "Mic muted" : `Mic ${me.stream.audio}`,
    ].join(" · ");
    text.append(name, line, media);
    row.append(face(me.name, me.photoURL, 60), text);
    you.append(row);
  }
  const others = $("others");
  others.innerHTML = "";
  for (const player of lobby.players.filter((p) => p.playerId !== state.playerId)) {
    const card = document.createElement("div");
    card.className = "mini";
    card.setAttribute("role", "listitem");
    card.dataset.test = "lobby-player";
    card.dataset.playerId = player.playerId;
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = player.name || "Player";
    const line = document.createElement("span");
    line.className = "muted small";
    line.textContent = status(player);
    card.append(face(player.name, player.photoURL, 40), name, line);
    others.append(card);
  }
  $("no-others").hidden = others.children.length > 0;
  $("game-mode").textContent = modeNames[lobby.game.mode] || lobby.game.mode;
  $("game-settings").textContent = `First to ${lobby.game.pointsToWin} · ${serveNames[lobby.game.serveRule] || lobby.game.serveRule}`;
  $("game-host").textContent = lobby.host.name || "Host";
  const waiting = $("waiting");
  if (lobby.state === "playing") {
    waiting.textContent = "Game on! Bounces show below as the ball is heard.";
  } else if (lobby.state === "waiting" && !waiting.querySelector(".dots")) {
    waiting.innerHTML = 'Waiting for host to start the game<span class="dots" aria-hidden="true"><span>.</span><span>.</span><span>.</span></span>';
  }
  if (me) {
    $("mute-video").disabled = me.stream.video === "off";
    $("mute-audio").disabled = me.stream.audio === "off";
    $("live-badge").hidden = !(me.stream.video === "live" || me.stream.audio === "live");
  }
}

function streamReport(report) {
  state.lastStream = report;
  $("mon-res").textContent = report.resolution || (state.withVideo ? "—" : "No video");
  $("mon-fps").textContent = report.fps == null ? "—" : `${report.fps} fps`;
  $("mon-rate").textContent = `${report.uploadKbps.toFixed(0)} kb/s`;
  if (current === "stream") {
    say($("stream-status"), report.state === "live" ? `Streaming live${report.resolution ? ` · ${report.resolution}` : ""}${report.fps ? ` · ${report.fps} fps` : ""}`
      : report.state === "starting" ? "Stream starting…" : "Unable to start your stream");
  }
  if (report.state === "failed" && state.streaming) {
    const me = myEntry();
    streamFailed(me && me.stream.audio === "failed" && me.stream.video !== "failed" ? "audio" : "video", report.diagnostics);
  } else if (report.state === "live") {
    overlay("ov-stream", false);
  }
}

function streamFailed(kind, diagnostics) {
  if (!$("ov-stream").hidden) return;
  $("ov-stream-text").textContent = kind === "video" ? "Unable to start video stream" : "Unable to start audio";
  const list = $("ov-stream-diag");
  list.innerHTML = "";
  for (const text of diagnostics || ["Check camera permissions", "Check network connection", "Restart app if needed"]) {
    const item = document.createElement("li");
    item.textContent = text;
    list.append(item);
  }
  $("ov-stream-novideo").hidden = !state.withVideo || !state.withAudio;
  say($("ov-stream-error"), "");
  overlay("ov-stream", true);
  mark("stream:failed");
}

async function recoverStream(withVideo) {
  for (const id of ["ov-stream-retry", "ov-stream-novideo"]) $(id).disabled = true;
  try {
    await startStream({ withVideo });
    overlay("ov-stream", false);
    mark("stream:recovered");
  } catch (error) {
    say($("ov-stream-error"), error.message || "Unable to start video stream");
  } finally {
    for (const id of ["ov-stream-retry", "ov-stream-novideo"]) $(id).disabled = false;
  }
}
$("ov-stream-retry").addEventListener("click", () => recoverStream(state.withVideo));
$("ov-stream-novideo").addEventListener("click", () => recoverStream(false));

for (const kind of ["video", "audio"]) {
  $(`mute-${kind}`).addEventListener("click", (event) => {
    const muted = event.currentTarget.getAttribute("aria-pressed") !== "true";
    event.currentTarget.setAttribute("aria-pressed", String(muted));
    event.currentTarget.textContent = `${muted ? "Unmute" : "Mute"} ${kind === "video" ? "Video" : "Audio"}`;
    pipeline.setMuted(kind, muted);
    state.socket.send({ type: "mute", video: pipeline.muted.video, audio: pipeline.muted.audio });
  });
}

/** One bounce heard by the server: newest first, at most 300 kept. */
function bounce(message) {
  const list = $("bounces");
  const item = document.createElement("li");
  item.dataset.test = "bounce";
  item.dataset.streamTime = String(message.streamTime);
  item.dataset.kind = message.kind;
  item.dataset.playerId = message.playerId;
  const player = state.lobby && state.lobby.players.find((p) => p.playerId === message.playerId);
  const kind = document.createElement("strong");
  kind.className = `kind-${message.kind}`;
  kind.textContent = message.kind === "table" ? "Table" : message.kind === "racket" ? "Racket" : "Bounce";
  const who = document.createElement("span");
  who.textContent = message.playerId === state.playerId ? "you" : (player && player.name) || "player";
  const time = document.createElement("span");
  time.className = "time";
  time.textContent = `${message.streamTime.toFixed(3)} s`;
  item.append(kind, who, time);
  list.prepend(item);
  while (list.children.length > 300) list.lastElementChild.remove();
  $("no-bounces").hidden = true;
  state.bounceCount += 1;
}

// ---- Leaving, the end, overlays ------------------------------------------------------------------------------

function overlay(id, visible) {
  const element = $(id);
  if (element.hidden === !visible) return;
  element.hidden = !visible;
  if (visible) {
    const button = element.querySelector("button");
    if (button) button.focus();
    markPainted(`overlay:${element.dataset.kind}`);
  }
}

function sessionEnded(reason) {
  state.ended = true;
  state.endReason = reason;
  pipeline.stop();
  overlay("ov-lost", false);
  overlay("ov-stream", false);
  $("conn-dot").className = "dot warn";
  $("conn-text").textContent = "Session ended";
  $("live-badge").hidden = true;
  $("ov-ended-text").textContent = reason === "idleExpired" ? "The session ended after a long time without play" : "The host has ended the session";
  overlay("ov-ended", true);
}

function leave() {
  if (state.socket) { state.socket.send({ type: "leave" }); state.socket.stop(); }
  goHome("");
}
$("leave").addEventListener("click", leave);
$("ov-lost-leave").addEventListener("click", leave);
$("ov-lost-retry").addEventListener("click", () => { say($("ov-lost-text"), "Reconnecting…"); state.socket.retryNow(); });

/** Back to the code entry, the session given up (the tab keeps its sign-in). */
function goHome(message, keepCode = false) {
  pipeline.stop();
  if (state.socket) state.socket.stop();
  if (state.stream) state.stream.getTracks().forEach((t) => t.stop());
  Object.assign(state, { socket: null, stream: null, playerId: null, resumeToken: null, lobby: null, streaming: false,
                         wantsReady: false, ended: false, lastTest: null });
  welcomed = false;
  for (const id of ["ov-lost", "ov-stream", "ov-ended"]) overlay(id, false);
  $("bounces").innerHTML = "";
  $("no-bounces").hidden = false;
  $("stream-start").textContent = "Start Stream";
  $("conn-dot").className = "dot";
  $("conn-text").textContent = "Connected to session";
  $("test-start").textContent = "Test Connection";
  for (const id of ["fig-upload", "fig-latency", "fig-load"]) $(id).textContent = "—";
  codeInput.value = keepCode ? displayCode(state.code) : "";
  codeTyped();
  say($("code-error"), message);
  history.replaceState(null, "", "/");
  show("join");
  codeInput.focus();
}
$("ov-ended-home").addEventListener("click", () => { goHome(""); });
$("ov-ended-another").addEventListener("click", () => { goHome(""); });

// ---- Start ----------------------------------------------------------------------------------------------------

function offline() { $("offline").hidden = navigator.onLine !== false; }
window.addEventListener("online", offline);
window.addEventListener("offline", offline);
offline();

const deepLink = /^\/join\/([^/]+)\/?$/.exec(location.pathname);
if (deepLink) {
  codeInput.value = decodeURIComponent(deepLink[1]);
}
codeTyped();
if (location.pathname === CALLBACK_PATH) {
  returnFromProvider();
} else {
  show("join");
}
window.pongPlayer = state;  // for the browser test's diagnostics
window.pongMedia = pipeline;
