/// When a stream's detector may trigger again and when its background may adapt again, and how the hold-offs a weak
/// candidate set are undone. Frames are the stream's own (mono) sample counts.
struct HoldOffs {
    /// No new trigger before this frame (a dropped ball's fastest bounces are 40 ms apart).
    private(set) var refractoryUntil: Int64 = 0
    /// The background stays frozen until here (an impact and its first reflections are sounding).
    private(set) var quietUntil: Int64 = 0
    /// The hold-offs in force before the last weak candidate (see `TriggerEvidence`).
    private(set) var beforeWeak: (refractory: Int64, quiet: Int64) = (0, 0)
    /// The last candidate was weak and rejected: a whole-band trigger may take its place from `beforeWeak` on
    /// (`DetectorParameters.racketUpgrade` bit 4).
    var weakReleased = false

    /// Whether a trigger at `frame` is held off.
    func refractory(at frame: Int64) -> Bool { frame < refractoryUntil }

    /// Whether the background may adapt at `frame`.
    func adapting(at frame: Int64) -> Bool { frame >= quietUntil }

    /// Whether a whole-band trigger at `frame` may replace a rejected weak candidate.
    func mayReplaceReleased(at frame: Int64) -> Bool { weakReleased && frame >= beforeWeak.refractory }

    /// Remembers the hold-offs before a weak candidate, to undo its own if it is rejected.
    mutating func saveBeforeWeak() { beforeWeak = (refractoryUntil, quietUntil) }

    /// Holds off triggers for `refractory` frames and adaptation for `quiet` frames from `onset`.
    mutating func commit(onset: Int64, refractory: Int64, quiet: Int64) {
        weakReleased = false
        refractoryUntil = onset + refractory
        quietUntil = onset + quiet
    }

    /// Undoes a rejected weak candidate's hold-offs: as if it had not been.
    mutating func restoreBeforeWeak() { (refractoryUntil, quietUntil) = beforeWeak }

    /// Ends the refractory at `frame` (a rejected candidate that was no abrupt onset holds nothing off).
    mutating func endRefractory(at frame: Int64) { refractoryUntil = min(refractoryUntil, frame) }
}
