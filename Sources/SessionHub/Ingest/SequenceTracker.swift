/// Follows a stream's `seq` counter (u32, wrapping) and says what each new frame means for stream time.
///
/// TCP keeps frames in order, so a gap is frames the phone never sent (it dropped them while its socket was down, or
/// its encoder skipped). A small step back is a duplicate and is dropped; a large jump either way is a counter the
/// phone restarted, taken as the next frame so the stream goes on.
package struct SequenceTracker: Hashable, Sendable {
    /// What a frame's sequence number means.
    package enum Step: Hashable, Sendable {
        /// The stream's first frame.
        case first
        /// The frame right after the previous one.
        case next
        /// `count` frames are missing before this one.
        case lost(count: Int)
        /// An old or repeated number: drop the frame.
        case stale
        /// A jump too large to be loss: the phone restarted its counter; treat as the next frame.
        case restarted
    }

    /// Gaps up to this many frames are loss; larger forward jumps are a restarted counter.
    package let maxGap: Int
    /// Steps back up to this many frames are stale duplicates; larger ones are a restarted counter.
    package let maxStaleness: Int
    private var expected: UInt32?

    package init(maxGap: Int = 3000, maxStaleness: Int = 1000) {
        self.maxGap = maxGap
        self.maxStaleness = maxStaleness
    }

    /// Takes the next frame's number.
    package mutating func step(_ sequence: UInt32) -> Step {
        guard let expected else {
            self.expected = sequence &+ 1
            return .first
        }
        let distance = Int(Int32(bitPattern: sequence &- expected))
        switch distance {
        case 0:
            self.expected = sequence &+ 1
            return .next
        case 1...maxGap:
            self.expected = sequence &+ 1
            return .lost(count: distance)
        case (-maxStaleness)..<0:
            return .stale
        default:
            self.expected = sequence &+ 1
            return .restarted
        }
    }
}
