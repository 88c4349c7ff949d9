extension Array where Element == UInt8 {
    /// `withUnsafeBytes` that keeps the closure's typed `AudioError` (the standard one is `rethrows`).
    func withAudioBytes<R>(_ body: (UnsafeRawBufferPointer) throws(AudioError) -> R) throws(AudioError) -> R {
        try withUnsafeBytes { raw in Result { () throws(AudioError) in try body(raw) } }.get()
    }
}

extension Array where Element == Float {
    /// `withUnsafeBufferPointer` that keeps the closure's typed `AudioError`.
    func withAudioSamples<R>(_ body: (UnsafeBufferPointer<Float>) throws(AudioError) -> R) throws(AudioError) -> R {
        try withUnsafeBufferPointer { buffer in Result { () throws(AudioError) in try body(buffer) } }.get()
    }
}
