// Camera and microphone to pongd's media frames with WebCodecs: Opus audio (AudioEncoder) and H.264 (else VP8)
// video (VideoEncoder), read from the tracks with MediaStreamTrackProcessor. Capture times are the tracks' own
// timestamps (µs), which the encoders carry to their chunks (docs/PROTOCOL.md, "Audio → bounces").
import { CODEC_H264, CODEC_OPUS, CODEC_VP8, KIND_AUDIO, KIND_VIDEO, MAX_FRAME_BYTES, HEADER_BYTES,
         mediaFrame, opusHeadPreSkip } from "./frames.js";

/** Camera size for a quality: `auto` is the connection test's `autoQuality` (720p until there is one). */
export function videoSize(quality) {
  return quality === "1080p" ? { width: 1920, height: 1080 } : { width: 1280, height: 720 };
}

/** Microphone constraints: no echo cancellation, noise suppression or gain control, which would blunt the bounces. */
export const audioConstraints = { echoCancellation: false, noiseSuppression: false, autoGainControl: false, channelCount: 1 };

/** Whether this browser can encode: WebCodecs and MediaStreamTrackProcessor. */
export function canEncode() {
  return "AudioEncoder" in window && "VideoEncoder" in window && "MediaStreamTrackProcessor" in window;
}

/** Video bit rate for a frame size and rate (bits per second). */
function videoBitrate(width, height, fps) {
  return Math.round(Math.min(8e6, width * height * fps * 0.07));
}

/** The H.264 codec string for a size and rate: Constrained Baseline at a level that fits, Annex-B output. */
function h264Codec(width, height, fps) {
  const macroblocksPerSecond = Math.ceil(width / 16) * Math.ceil(height / 16) * fps;
  const level = macroblocksPerSecond <= 108000 ? "1f" : macroblocksPerSecond <= 245760 ? "28" : macroblocksPerSecond <= 522240 ? "2a" : "33";
  return `avc1.42e0${level}`;
}

export class MediaPipeline {
  /** `send(bytes)` sends a binary frame (false when it could not), `sendJSON(message)` a text message. */
  constructor({ send, sendJSON, onError }) {
    Object.assign(this, { send, sendJSON, onError });
    this.running = false;
    this.muted = { video: false, audio: false };
    this.stats = { videoFrames: 0, audioFrames: 0, bytes: 0, width: 0, height: 0 };
  }

  /**
   * Chooses the codecs for `stream`'s tracks (video: `{quality, fps}` or null; audio: true or false) and returns
   * the `POST /streams/start` body's `video` and `audio` (without `sessionCode`).
   */
  async prepare(stream, video, audio) {
    this.stop();
    this.plan = { video: null, audio: null };
    const videoTrack = video && stream ? stream.getVideoTracks().find((t) => t.readyState === "live") : null;
    const audioTrack = audio && stream ? stream.getAudioTracks().find((t) => t.readyState === "live") : null;
    if (videoTrack) {
      const settings = videoTrack.getSettings();
      const width = settings.width || 1280, height = settings.height || 720;
      const fps = Math.round(settings.frameRate || video.fps || 30);
      const base = { width, height, framerate: fps, bitrate: videoBitrate(width, height, fps), latencyMode: "realtime" };
      let config = { ...base, codec: h264Codec(width, height, fps), avc: { format: "annexb" } };
      let codec = "h264";
      if (!(await VideoEncoder.isConfigSupported(config).catch(() => ({ supported: false }))).supported) {
        config = { ...base, codec: "vp8" };
        codec = "vp8";
        if (!(await VideoEncoder.isConfigSupported(config).catch(() => ({ supported: false }))).supported) {
          throw new Error("This browser cannot encode video");
        }
      }
      this.plan.video = { track: videoTrack, config, codec, fps };
      this.stats.width = width;
      this.stats.height = height;
    }
    if (audioTrack) {
      const settings = audioTrack.getSettings();
      this.plan.audio = { track: audioTrack, sampleRate: settings.sampleRate || 48000, channels: settings.channelCount || 1 };
    }
    return {
      video: this.plan.video ? { codec: this.plan.video.codec, quality: video.quality, fps: video.fps } : null,
      audio: this.plan.audio ? { codec: "opus", sampleRate: this.plan.audio.sampleRate, channels: this.plan.audio.channels } : null,
    };
  }

  /** Starts encoding and sending what `prepare` planned (after `POST /streams/start` accepted it). */
  start() {
    this.running = true;
    const generation = (this.generation = (this.generation || 0) + 1);
    if (this.plan.video) this.runVideo(this.plan.video, generation);
    if (this.plan.audio) this.runAudio(this.plan.audio, generation);
  }

  /** Stops the encoders (the tracks stay with their owner). */
  stop() {
    this.running = false;
    this.generation = (this.generation || 0) + 1;
    for (const reader of [this.videoReader, this.audioReader]) { if (reader) reader.cancel().catch(() => {}); }
    for (const encoder of [this.videoEncoder, this.audioEncoder]) {
      if (encoder && encoder.state !== "closed") { try { encoder.close(); } catch { /* closed */ } }
    }
    this.videoReader = this.audioReader = this.videoEncoder = this.audioEncoder = null;
  }

  /** Mutes or unmutes a track: a muted track's input is dropped, not encoded. */
  setMuted(kind, muted) {
    this.muted[kind] = muted;
    if (kind === "video" && !muted) this.keyFrameDue = true;
  }

  async runVideo(plan, generation) {
    let seq = 0, frames = 0;
    this.keyFrameDue = true;
    const codec = plan.codec === "h264" ? CODEC_H264 : CODEC_VP8;
    const encoder = new VideoEncoder({
      output: (chunk) => {
        if (generation !== this.generation) return;
        if (chunk.byteLength + HEADER_BYTES > MAX_FRAME_BYTES) { this.keyFrameDue = true; return; }
        const payload = new Uint8Array(chunk.byteLength);
        chunk.copyTo(payload);
        const frame = mediaFrame(KIND_VIDEO, codec, seq++, chunk.timestamp, payload);
        if (this.send(frame)) { this.stats.videoFrames += 1; this.stats.bytes += frame.byteLength; }
      },
      error: (error) => this.failed("video", error),
    });
    encoder.configure(plan.config);
    this.videoEncoder = encoder;
    const reader = new MediaStreamTrackProcessor({ track: plan.track }).readable.getReader();
    this.videoReader = reader;
    const keyEvery = Math.max(1, plan.fps * 2);
    for (;;) {
      let result;
      try { result = await reader.read(); } catch { break; }
      if (result.done || generation !== this.generation) { if (result.value) result.value.close(); break; }
      const frame = result.value;
      if (!this.muted.video && encoder.state === "configured" && encoder.encodeQueueSize < 3) {
        const keyFrame = this.keyFrameDue || frames % keyEvery === 0;
        this.keyFrameDue = false;
        try { encoder.encode(frame, { keyFrame }); frames += 1; } catch (error) { this.failed("video", error); }
      }
      frame.close();
    }
  }

  async runAudio(plan, generation) {
    let seq = 0;
    let preSkipSent = false;
    let encoder = null;
    // Up to 10 s of microphone input waits for this loop (Chromium's default keeps 10 frames, 100 ms, and drops the
    // rest): a page busy for a moment catches up instead of losing audio, and with it the bounces' timing.
    const reader = new MediaStreamTrackProcessor({ track: plan.track, maxBufferSize: 1000 }).readable.getReader();
    this.audioReader = reader;
    for (;;) {
      let result;
      try { result = await reader.read(); } catch { break; }
      if (result.done || generation !== this.generation) { if (result.value) result.value.close(); break; }
      const data = result.value;
      if (!encoder) {
        // Configured from the first input: its rate and channels are what the encoder must take.
        encoder = new AudioEncoder({
          output: (chunk, metadata) => {
            if (generation !== this.generation) return;
            if (!preSkipSent) {
              // The encoder's delay, known from its first packet's OpusHead: sent right before that packet.
              const preSkip = opusHeadPreSkip(metadata && metadata.decoderConfig && metadata.decoderConfig.description);
              // Without an OpusHead, libopus's usual look-ahead at 48 kHz (6.5 ms).
              this.preSkip = preSkip ?? 312;
              this.preSkipSource = preSkip == null ? "default" : "OpusHead";
              preSkipSent = this.sendJSON({ type: "audio.preSkip", preSkip: this.preSkip });
            }
            const payload = new Uint8Array(chunk.byteLength);
            chunk.copyTo(payload);
            const frame = mediaFrame(KIND_AUDIO, CODEC_OPUS, seq++, chunk.timestamp, payload);
            if (this.send(frame)) { this.stats.audioFrames += 1; this.stats.bytes += frame.byteLength; }
          },
          error: (error) => this.failed("audio", error),
        });
        encoder.configure({ codec: "opus", sampleRate: data.sampleRate, numberOfChannels: data.numberOfChannels,
                            bitrate: 64000, opus: { frameDuration: 20000, complexity: 5 } });
        this.audioEncoder = encoder;
      }
      if (!this.muted.audio && encoder.state === "configured") {
        try { encoder.encode(data); } catch (error) { this.failed("audio", error); }
      }
      data.close();
    }
  }

  failed(kind, error) {
    if (this.onError) this.onError(kind, error);
  }
}
