import NIOCore
import PongClient
import PongWire

/// Real-time audio: each packet is scheduled at an absolute deadline on the phone's loop (no drift).
///
/// Packet `n` (counted across loops of the file) holds stream samples `[s, s + len)`; its `captureTime` is the
/// stream start on the phone's µs clock plus `s / 48000` s, and it is due when its last sample would have been
/// captured: stream start + `(s + len) / 48000` s. `seq` is `n`, so packets skipped while the socket is down leave
/// a gap in the sequence and in stream time.
struct AudioState {
    /// When stream sample 0 was captured.
    var start: MonoTime?
    /// The next packet's number.
    var next = 0
    /// Not sending (socket down); packets still fall due and are skipped.
    var paused = false
    /// Streaming is over.
    var stopped = false
    /// The next packet's timer.
    var task: Scheduled<Void>?
}

extension AudioTrack {
    /// Packet `n` of the endless loop and its first stream sample.
    func packet(_ n: Int) -> (packet: Packet, streamSample: Int) {
        let packet = packets[n % packets.count]
        return (packet, (n / packets.count) * loopSamples + packet.start)
    }

    /// The capture time of stream sample `sample` for a stream whose sample 0 was captured at `startMicros`.
    static func captureMicros(startMicros: UInt64, sample: Int) -> UInt64 {
        startMicros + UInt64(sample) * 125 / 6  // 1e6 / 48000 = 125 / 6
    }

    /// Where a capture time falls in a stream whose sample 0 was captured at `startMicros`, in seconds: how the phone
    /// places a `bounce` by its `captureTime` (the inverse of `captureMicros`).
    static func streamSeconds(captureMicros: Int64, startMicros: UInt64) -> Double {
        (Double(captureMicros) - Double(startMicros)) / 1e6
    }
}

extension PhoneDriver {
    /// Stream sample 0 is captured now; schedules the packets and the `--duration` report.
    func startAudio() {
        guard track != nil, audio.start == nil else { return }
        let now = Self.now()
        audio.start = now
        scheduleNextPacket()
        _ = loop.scheduleTask(deadline: .uptimeNanoseconds(now.adding(seconds: settings.duration).nanoseconds)) {
            guard !self.reportedStop else { return }
            self.reportedStop = true
            self.events?.phoneStreamedEnough(session: self.session)
        }
    }

    /// The run is over for this phone's session: stop streaming (and chaos); the host ends the session next.
    func stopStreaming() {
        guard !audio.stopped else { return }
        audio.stopped = true
        audio.task?.cancel()
        chaosTask?.cancel()
        perform(journey.stop())
    }

    private func scheduleNextPacket() {
        guard let track, let start = audio.start, !audio.stopped else { return }
        let (packet, sample) = track.packet(audio.next)
        let due = start.adding(seconds: Double(sample + packet.samples) / Double(AudioTrack.sampleRate))
        audio.task = loop.scheduleTask(deadline: .uptimeNanoseconds(due.nanoseconds)) {
            self.packetDue(due: due)
        }
    }

    private func packetDue(due: MonoTime) {
        guard let track, let start = audio.start, !audio.stopped else { return }
        let n = audio.next
        audio.next += 1
        if !audio.paused, let socket {
            let (packet, sample) = track.packet(n)
            let startMicros = start.microseconds
            let capture = AudioTrack.captureMicros(startMicros: startMicros, sample: sample)
            var buffer = ByteBuffer()
            MediaFrame.write(codec: .opus, sequence: UInt32(truncatingIfNeeded: n), captureTime: capture,
                             payload: packet.bytes, into: &buffer)
            socket.send(binary: buffer)
            ring.record(.init(captureStart: capture,
                              captureEnd: AudioTrack.captureMicros(startMicros: startMicros,
                                                                   sample: sample + packet.samples),
                              due: due))
            windows.sent(startSample: sample, samples: packet.samples)
            counters.audioSent(lag: SimStats.micros(Self.now().seconds(since: due)))
            if resumedAfterRestart { counters.audioAfterRestart += 1 }
        }
        scheduleNextPacket()
    }
}

/// The upload-probe burst: filler frames while the socket drains, under an optional rate cap.
struct FillerState {
    /// When the burst ends (nil: no burst).
    var end: MonoTime?
    /// Sequence number of the next filler frame.
    var sequence: UInt32 = 0
    /// Bytes the rate cap allows now.
    var allowance: Double = 0
    /// When the allowance was last topped up.
    var refilled: MonoTime?
    /// A pending pump.
    var task: Scheduled<Void>?
}

extension PhoneDriver {
    /// Starts a filler burst of `seconds`.
    func startFiller(seconds: Double) {
        let now = Self.now()
        filler.end = now.adding(seconds: seconds)
        filler.refilled = now
        filler.allowance = Double(settings.fillerFrameBytes)
        pumpFiller()
    }

    /// Writes filler while the socket is writable (and the cap allows), then waits for writability or time.
    func pumpFiller() {
        guard let end = filler.end, let socket else { return }
        let now = Self.now()
        guard now < end else {
            filler.end = nil
            return
        }
        let frameBytes = settings.fillerFrameBytes + MediaFrame.headerBytes
        let capped = settings.fillerBytesPerSecond > 0
        if capped, let refilled = filler.refilled {
            filler.allowance = min(filler.allowance + now.seconds(since: refilled) * settings.fillerBytesPerSecond,
                                   max(Double(frameBytes), settings.fillerBytesPerSecond * 0.02))
        }
        filler.refilled = now
        var written = 0
        while socket.isWritable && written < 64 && (!capped || filler.allowance >= Double(frameBytes)) {
            var buffer = ByteBuffer()
            MediaFrame.write(codec: .filler, sequence: filler.sequence, captureTime: now.microseconds,
                             payload: settings.fillerPayload, into: &buffer)
            socket.send(binary: buffer, flush: false)
            filler.sequence &+= 1
            filler.allowance -= Double(frameBytes)
            written += 1
        }
        socket.flush()
        counters.fillerBytes += written * frameBytes
        // Wake again: on writability (socketWritable), or when the cap allows the next frame, or shortly.
        guard filler.task == nil else { return }
        var wait = 0.002
        if capped && filler.allowance < Double(frameBytes) {
            wait = max(0.0005, (Double(frameBytes) - filler.allowance) / settings.fillerBytesPerSecond)
        }
        filler.task = loop.scheduleTask(in: .nanoseconds(Int64(wait * 1e9))) {
            self.filler.task = nil
            self.pumpFiller()
        }
    }
}
