// The sign-in screen: log in, sign up, the social providers the server lists (GET /auth/providers), or a guest.
import { $, api, say } from "./api.js";
import { startSocialSignIn } from "./social.js";

/** Wires the sign-in screen; `signedIn(token)` continues the journey, `code()` is the session being joined. */
export function setUpAuth({ signedIn, close, code }) {
  const tabs = { login: [$("tab-login"), $("login-form")], signup: [$("tab-signup"), $("signup-form")] };
  function select(name) {
    for (const [key, [tab, panel]] of Object.entries(tabs)) {
      tab.setAttribute("aria-selected", String(key === name));
      panel.hidden = key !== name;
    }
  }
  $("tab-login").addEventListener("click", () => select("login"));
  $("tab-signup").addEventListener("click", () => select("signup"));
  $("auth-close").addEventListener("click", close);

  for (const toggle of document.querySelectorAll("[data-reveal]")) {
    toggle.addEventListener("click", () => {
      const input = $(toggle.dataset.reveal);
      const shown = input.type === "password";
      input.type = shown ? "text" : "password";
      toggle.setAttribute("aria-pressed", String(shown));
      toggle.setAttribute("aria-label", shown ? "Hide password" : "Show password");
      toggle.textContent = shown ? "Hide" : "Show";
    });
  }

  async function attempt(button, errorElement, busyText, call) {
    const text = button.textContent;
    button.disabled = true;
    button.innerHTML = `<span class="spinner" aria-hidden="true"></span> ${busyText}`;
    say(errorElement, "");
    try {
      const answer = await call();
      await signedIn(answer.token);
    } catch (error) {
      say(errorElement, error.retryAfter ? `${error.message} (${error.retryAfter} s)` : error.message);
    } finally {
      button.disabled = false;
      button.textContent = text;
    }
  }

  $("login-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const email = $("login-email").value.trim(), password = $("login-password").value;
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) return say($("login-error"), "Enter a valid email address");
    attempt($("login-submit"), $("login-error"), "Signing in...",
            () => api("POST", "/auth/login", { body: { email, password } }));
  });

  const strength = (password) => {
    if (!password) return "";
    let score = Math.min(2, Math.floor(password.length / 6));
    if (/[a-z]/.test(password) && /[A-Z]/.test(password)) score += 1;
    if (/\d/.test(password) && /[^A-Za-z0-9]/.test(password)) score += 1;
    return password.length < 10 ? "Too short" : ["Weak", "Weak", "Fair", "Good", "Strong"][score];
  };
  $("signup-password").addEventListener("input", (event) => { $("strength").textContent = strength(event.target.value); });

  $("signup-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = $("signup-name").value.trim(), email = $("signup-email").value.trim();
    const password = $("signup-password").value, confirm = $("signup-confirm").value;
    if (!name) return say($("signup-error"), "Enter your name (up to 100 characters)");
    if (password !== confirm) return say($("signup-error"), "The passwords do not match");
    if (!$("signup-terms").checked) return say($("signup-error"), "Accept the terms to create an account");
    attempt($("signup-submit"), $("signup-error"), "Creating account...",
            () => api("POST", "/auth/signup", { body: { name, email, password, acceptTerms: true } }));
  });

  $("guest").addEventListener("click", () => {
    attempt($("guest"), $("guest-error"), "Joining as guest...", () => api("POST", "/auth/guest", { body: {} }));
  });

  // Apple and Google buttons only for the providers this server is configured with an authorization endpoint for
  // (none: no buttons). A click leaves for the provider, which sends the person back to /auth/callback (social.js).
  api("GET", "/auth/providers").then((answer) => {
    const providers = ((answer && answer.providers) || []).filter((p) => p.authorizationURL && p.clientId);
    const box = $("social-buttons");
    for (const provider of providers) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "outline block";
      button.dataset.provider = provider.id;
      button.dataset.test = `auth-social-${provider.id}`;
      button.textContent = `Continue with ${provider.name}`;
      button.addEventListener("click", () => {
        say($("social-error"), "");
        button.disabled = true;
        button.innerHTML = `<span class="spinner" aria-hidden="true"></span> Opening ${provider.name}...`;
        startSocialSignIn(provider, code());
      });
      // Back from the provider by the Back button (the page from the browser's cache): the button works again.
      window.addEventListener("pageshow", () => {
        button.disabled = false;
        button.textContent = `Continue with ${provider.name}`;
      });
      box.append(button);
    }
    $("social").hidden = providers.length === 0;
  }).catch(() => { $("social").hidden = true; });
}
