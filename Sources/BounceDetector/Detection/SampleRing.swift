/// The last `capacity` samples of a stream, addressed by absolute sample index (capacity is a power of two).
///
/// Every sample is written twice, at its slot and one capacity later, so any run of up to `capacity` recent samples
/// is contiguous in memory (`span(from:)`) and can be processed without wrapping.
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
        storage = .allocate(capacity: 2 * size)
        storage.initialize(repeating: 0, count: 2 * size)
    }

    func deallocate() { storage.deallocate() }

    /// Stores the sample with absolute index `index`.
    @inline(__always)
    func write(_ value: Float, at index: Int64) {
        let slot = Int(truncatingIfNeeded: index) & mask
        storage[slot] = value
        storage[slot + capacity] = value
    }

    /// Stores eight samples from absolute index `index`, a multiple of 8 (so they share one side of the wrap).
    @inline(__always)
    func write(_ values: SIMD8<Float>, at index: Int64) {
        let slot = Int(truncatingIfNeeded: index) & mask
        UnsafeMutableRawPointer(storage + slot).storeBytes(of: values, as: SIMD8<Float>.self)
        UnsafeMutableRawPointer(storage + slot + capacity).storeBytes(of: values, as: SIMD8<Float>.self)
    }

    /// Contiguous memory holding the samples from absolute index `start` onwards (up to `capacity` of them).
    @inline(__always)
    func span(from start: Int64) -> UnsafePointer<Float> {
        UnsafePointer(storage + (Int(truncatingIfNeeded: start) & mask))
    }

    /// The sample with absolute index `index` (valid for the last `capacity` indices written).
    @inline(__always)
    subscript(index: Int64) -> Float { storage[Int(truncatingIfNeeded: index) & mask] }
}
