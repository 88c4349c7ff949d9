// pongd's binary media frames (docs/PROTOCOL.md, "Binary media frames"): a 14-byte big-endian header, then the payload.

export const KIND_AUDIO = 1, KIND_VIDEO = 2, KIND_FILLER = 3;
export const CODEC_OPUS = 1, CODEC_H264 = 1, CODEC_VP8 = 2;
/** Largest frame the server takes, header included. */
export const MAX_FRAME_BYTES = 262144;
export const HEADER_BYTES = 14;

/** One frame: `kind`, `codec`, `seq` (u32, wraps), `captureTime` (µs, u64), and the payload bytes. */
export function mediaFrame(kind, codec, seq, captureTime, payload) {
  const frame = new Uint8Array(HEADER_BYTES + payload.byteLength);
  const view = new DataView(frame.buffer);
  view.setUint8(0, kind);
  view.setUint8(1, codec);
  view.setUint32(2, seq >>> 0);
  view.setBigUint64(6, BigInt(Math.max(0, Math.round(captureTime))));
  frame.set(payload instanceof Uint8Array ? payload : new Uint8Array(payload), HEADER_BYTES);
  return frame;
}

/** The pre-skip (48 kHz frames) of an OpusHead (RFC 7845 §5.1), or null when `bytes` is not one. */
export function opusHeadPreSkip(bytes) {
  if (!bytes) return null;
  const head = new Uint8Array(bytes instanceof ArrayBuffer ? bytes : bytes.buffer ? bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) : bytes);
  if (head.length < 19 || String.fromCharCode(...head.slice(0, 8)) !== "OpusHead") return null;
  return head[10] | (head[11] << 8);
}
