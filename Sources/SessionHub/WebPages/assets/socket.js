// A session WebSocket that reconnects by itself (docs/PROTOCOL.md, "Close codes", "Restarts and reconnecting"):
// retryable closes and drops reconnect with backoff, and a player's socket says `hello {resumeToken}` at once.
import { backoffMs, isFinalClose, socketURL } from "./api.js";

export class SessionSocket {
  /**
   * `path`, `token`: where to connect. `hello()`: the first message to send on each socket (null: none, for a
   * dashboard). `onMessage(message)` for every text message; `onLost(attempt, code)` when it dropped and a
   * reconnect is planned; `onBack()` at the `welcome` after a loss; `onFinal(code, reason)` for a final close.
   */
  constructor({ path, token, hello, onMessage, onLost, onBack, onFinal }) {
    Object.assign(this, { path, token, hello, onMessage, onLost, onBack, onFinal });
    this.attempt = 0;
    this.moves = 0;
    this.lost = false;
    this.stopped = false;
    this.timer = null;
    this.ws = null;
  }

  /** Opens the socket (again). */
  connect() {
    clearTimeout(this.timer);
    this.timer = null;
    if (this.stopped) return;
    const ws = new WebSocket(socketURL(this.path, this.token));
    ws.binaryType = "arraybuffer";
    this.ws = ws;
    ws.onopen = () => {
      const hello = this.hello && this.hello();
      if (hello) ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (event) => {
      if (typeof event.data !== "string") return;
      let message;
      try { message = JSON.parse(event.data); } catch { return; }
      if (message.type === "welcome") {
        this.attempt = 0;
        this.moves = 0;
        if (this.lost) { this.lost = false; this.onBack && this.onBack(); }
      }
      this.onMessage(message);
    };
    ws.onclose = (event) => {
      if (this.ws !== ws || this.stopped) return;
      this.ws = null;
      if (isFinalClose(event.code)) {
        this.stopped = true;
        this.onFinal && this.onFinal(event.code, event.reason);
        return;
      }
      this.lost = true;
      // 4101: the session lives on another node, whose socket URL is the reason: go there at once (a few times).
      if (event.code === 4101 && /^(wss?|https?):\/\//.test(event.reason) && this.moves < 5) {
        this.moves += 1;
        this.path = event.reason;
        this.onLost && this.onLost(this.attempt, event.code, 0);
        this.timer = setTimeout(() => this.connect(), 0);
        return;
      }
      const wait = backoffMs(this.attempt, event.reason);
      this.onLost && this.onLost(this.attempt, event.code, wait);
      this.attempt += 1;
      this.timer = setTimeout(() => this.connect(), wait);
    };
  }

  /** Whether messages can be sent now. */
  get open() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  /** Bytes queued in the browser, not yet sent. */
  get buffered() {
    return this.ws ? this.ws.bufferedAmount : 0;
  }

  /** Sends a JSON message; false when the socket is not open. */
  send(message) {
    if (!this.open) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /** Sends a binary frame; false when the socket is not open. */
  sendBinary(bytes) {
    if (!this.open) return false;
    this.ws.send(bytes);
    return true;
  }

  /** Reconnects now instead of at the planned time (the overlay's Retry). */
  retryNow() {
    if (this.stopped || this.open) return;
    if (this.ws) { this.ws.onclose = null; this.ws.close(); this.ws = null; }
    this.connect();
  }

  /** Closes for good (after `leave`, or when the page gives up the session). */
  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.ws) { try { this.ws.close(1000); } catch { /* already closing */ } }
    this.ws = null;
  }
}
