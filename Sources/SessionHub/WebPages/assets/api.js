// HTTP calls to pongd (docs/PROTOCOL.md) and the helpers both pages share.

/** An error answer of the API: `{error: {code, message}}` with its status and Retry-After, or a network failure. */
export class ApiError extends Error {
  constructor(status, code, message, retryAfter) {
    super(message);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
  }
}

/** Calls `method path` with an optional bearer token and JSON body; resolves to the parsed JSON (or null). */
export async function api(method, path, { token, body } = {}) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body),
                                   cache: "no-store" });
  } catch {
    throw new ApiError(0, "network", navigator.onLine === false ? "No internet connection"
                                                                : "Connection error, please try again");
  }
  const text = await response.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch { json = null; }
  if (!response.ok) {
    const error = json && json.error ? json.error : { code: "http_" + response.status, message: "Connection error, please try again" };
    throw new ApiError(response.status, error.code, error.message, Number(response.headers.get("Retry-After")) || 0);
  }
  return json;
}

/** The characters of session codes (docs/PROTOCOL.md, "Codes in paths and bodies"). */
export const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** What a person typed, upper-cased without spaces and dashes (at most 6 characters kept). */
export function codeCharacters(text) {
  return text.toUpperCase().replace(/[\s-]/g, "").slice(0, 6);
}

/** `ABC234` → `ABC-234` (partial codes too: `AB` → `AB`, `ABCD` → `ABC-D`). */
export function displayCode(chars) {
  return chars.length > 3 ? `${chars.slice(0, 3)}-${chars.slice(3)}` : chars;
}

/** Whether every character can be in a code. */
export function codeCharactersValid(chars) {
  return [...chars].every((c) => CODE_ALPHABET.includes(c));
}

/**
 * The WebSocket URL of a path on this origin, or of an absolute URL (another node's, docs/PROTOCOL.md "Several
 * nodes"), with `?token=` (docs/PROTOCOL.md, "A client, step by step").
 */
export function socketURL(path, token) {
  const url = new URL(path, location.href);
  url.protocol = url.protocol === "https:" || url.protocol === "wss:" ? "wss:" : "ws:";
  url.searchParams.set("token", token);
  return url.toString();
}

/** Close codes after which a client must not reconnect (4005 and 4008 aside, 4000–4099). */
export function isFinalClose(code) {
  return code >= 4000 && code <= 4099 && code !== 4005 && code !== 4008;
}

/**
 * The wait before reconnect attempt `n` (from 0): `min(max(5 s, start), start × 2ⁿ × (1 + u/2))` with the close
 * reason's `retry in N s` as `start` when it has one, else 0.25 s (docs/PROTOCOL.md, "Restarts and reconnecting").
 */
export function backoffMs(attempt, reason) {
  const hint = /retry in (\d+(?:\.\d+)?) s/.exec(reason || "");
  const start = hint ? Number(hint[1]) : 0.25;
  return 1000 * Math.min(Math.max(5, start), start * 2 ** attempt * (1 + Math.random() / 2));
}

/** `document.getElementById`. */
export const $ = (id) => document.getElementById(id);

/** Sets an element's text and shows it, or hides it for an empty text. */
export function say(element, text) {
  element.textContent = text || "";
  element.hidden = !text;
}

/** The first letters of a name, for an avatar without a photo. */
export function initials(name) {
  const words = (name || "?").trim().split(/\s+/).filter(Boolean);
  return (words.length > 1 ? words[0][0] + words[1][0] : (words[0] || "?").slice(0, 2)).toUpperCase();
}

/** A round avatar: the photo when there is one, else the initials. */
export function face(name, photoURL, size) {
  const span = document.createElement("span");
  span.className = `face s${size}`;
  if (photoURL) {
    const img = document.createElement("img");
    img.src = photoURL;
    img.alt = "";
    span.append(img);
  } else {
    span.textContent = initials(name);
  }
  span.setAttribute("aria-hidden", "true");
  return span;
}

/** Timing marks the browser test reads (docs/WEB.md, "Budgets"): `{name, t}` with `t` from performance.now(). */
export function mark(name) {
  (window.pongMarks ||= []).push({ name, t: performance.now() });
}

/** Marks `screen:<name>` once the screen has been painted (the frame after it was shown). */
export function markPainted(name) {
  requestAnimationFrame(() => requestAnimationFrame(() => mark(`screen:${name}`)));
}

// Every click on a test hook is marked, so the test can time each step from the click to what it brought.
document.addEventListener("click", (event) => {
  const hook = event.target.closest && event.target.closest("[data-test]");
  if (hook) mark(`click:${hook.dataset.test}`);
}, true);

/** Game settings in words. */
export const modeNames = { rally: "Rally", fullGame: "Full Game" };
export const serveNames = { standard: "Standard serve", winnerServes: "Winner serves" };
