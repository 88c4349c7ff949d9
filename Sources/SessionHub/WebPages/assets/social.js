// Social sign-in without the provider's script (docs/WEB.md "Social sign-in"; OpenID Connect Core 3.2, the implicit
// flow): the page goes to the provider's authorization endpoint with a random state and nonce kept in this tab's
// sessionStorage; the provider sends the person back to /auth/callback with the ID token in the fragment, which the
// page checks, removes from the address, and posts to POST /auth/social with the nonce.
import { api } from "./api.js";

/** Where providers send the person back (the player's page; register it with the provider). */
export const CALLBACK_PATH = "/auth/callback";
const KEY = "pongd.social";

/** 128 random bits as hex. */
function randomHex() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The authorization request for `provider` ({id, name, authorizationURL, clientId} of GET /auth/providers). */
export function authorizationRequest(provider, state, nonce) {
  const url = new URL(provider.authorizationURL);
  // Apple answers no id_token alone, and no scope into a fragment (its form_post needs a server to receive it).
  const apple = url.hostname === "appleid.apple.com";
  const query = { response_type: apple ? "code id_token" : "id_token", response_mode: "fragment",
                  scope: apple ? null : "openid email", client_id: provider.clientId,
                  redirect_uri: location.origin + CALLBACK_PATH, state, nonce };
  for (const [key, value] of Object.entries(query)) if (value !== null) url.searchParams.set(key, value);
  return url.toString();
}

/** Leaves for `provider`'s sign-in, remembering in this tab what the return needs (`code`: the session joined). */
export function startSocialSignIn(provider, code) {
  const state = randomHex(), nonce = randomHex();
  sessionStorage.setItem(KEY, JSON.stringify({ provider: provider.id, name: provider.name, state, nonce, code }));
  location.assign(authorizationRequest(provider, state, nonce));
}

/**
 * On /auth/callback: reads the provider's answer, clears it from the address (back to /join/{code}), checks the
 * state and posts the ID token. Resolves to `{code, name, token}` when signed in, `{code, name, error}` (a message
 * for the person) when not.
 */
export async function finishSocialSignIn() {
  const answer = new URLSearchParams(location.hash.slice(1) || location.search.slice(1));
  let saved = null;
  try { saved = JSON.parse(sessionStorage.getItem(KEY) || "null"); } catch { saved = null; }
  sessionStorage.removeItem(KEY);
  const code = (saved && typeof saved.code === "string" && /^[A-Z0-9]{6}$/.test(saved.code)) ? saved.code : "";
  history.replaceState(null, "", code ? `/join/${code}` : "/");
  if (!saved || !saved.state) return { code, error: "This sign-in was not started in this tab. Please try again" };
  const name = saved.name;
  if (answer.get("error")) {
    const error = answer.get("error");
    const detail = answer.get("error_description");
    return { code, name, error: error === "access_denied" ? `Sign-in with ${name} was cancelled`
                                 : `${name} could not sign you in: ${detail || error}` };
  }
  if (answer.get("state") !== saved.state) {
    return { code, name, error: "This sign-in was not started on this page. Please try again" };
  }
  const idToken = answer.get("id_token");
  if (!idToken) return { code, name, error: `${name} sent no sign-in. Please try again` };
  try {
    const result = await api("POST", "/auth/social", { body: { provider: saved.provider, idToken, nonce: saved.nonce } });
    return { code, name, token: result.token };
  } catch (error) {
    return { code, name, error: error.retryAfter ? `${error.message} (${error.retryAfter} s)` : error.message };
  }
}
