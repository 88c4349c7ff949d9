// The phone's side of the connection test (docs/PROTOCOL.md, "Connection test"): answer each `probe.ping` at
// once, send filler frames of 64 KiB for `probe.upload`'s seconds, and report the `connectionTest` result.
import { KIND_FILLER, mediaFrame } from "./frames.js";

/** Filler frame size: far above the 1 KiB that exempts filler from the socket's frame-rate limit. */
const FILLER_BYTES = 64 * 1024;
/** Bytes the browser may hold unsent before the sender waits, so pongs never queue behind seconds of filler. */
const MAX_BUFFERED = 1024 * 1024;

export function startConnectionTest({ socket, started, finished }) {
  let running = false;
  let uploadUntil = 0;
  const filler = mediaFrame(KIND_FILLER, 0, 0, 0, new Uint8Array(FILLER_BYTES - 14));

  async function upload(seconds) {
    uploadUntil = performance.now() + seconds * 1000;
    while (running && performance.now() < uploadUntil) {
      const s = socket();
      if (!s || !s.open) break;
      for (let i = 0; i < 8 && s.buffered < MAX_BUFFERED; i += 1) s.sendBinary(filler);
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }

  return {
    /** Asks the server for a test (a test already running is only waited for). */
    start() {
      const s = socket();
      if (!s) return;
      if (!running) {
        if (!s.send({ type: "connectionTest.start" })) return finished({ failure: "network", message: "Connection error, please try again" });
        running = true;
      }
      started();
    },
    /** Handles `probe.ping`, `probe.upload` and `connectionTest`. */
    handle(message) {
      const s = socket();
      if (message.type === "probe.ping") {
        running = true;
        if (s) s.send({ type: "probe.pong", id: message.id, t: message.t });
      } else if (message.type === "probe.upload") {
        running = true;
        upload(message.seconds);
      } else if (message.type === "connectionTest") {
        running = false;
        uploadUntil = 0;
        finished(message);
      }
    },
    get running() { return running; },
  };
}
