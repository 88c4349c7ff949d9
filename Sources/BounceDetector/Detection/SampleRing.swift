/// The last `capacity` samples of a stream, addressed by absolute sample index (capacity is a power of two).
struct SampleRing {
    let capacity: Int
    private let mask: Int
    private let storage: UnsafeMutablePointer<Float>

    /// Allocates a ring of at least `minimumCapacity` samples; call `deallocate()` when done.
    init(minimumCapacity: Int) {
        var size = 1
        while size < minimumCapacity { size <<= 1 }
        capacity = size
        mask = size - 1
        storage = .allocate(capacity: size)
        storage.initialize(repeating: 0, count: size)
    }

    func deallocate() { storage.deallocate() }

    /// Stores the sample with absolute index `index`.
    @inline(__always)
    func write(_ value: Float, at index: Int64) { storage[Int(truncatingIfNeeded: index) & mask] = value }

    /// The sample with absolute index `index` (valid for the last `capacity` indices written).
    @inline(__always)
    subscript(index: Int64) -> Float { storage[Int(truncatingIfNeeded: index) & mask] }
}
