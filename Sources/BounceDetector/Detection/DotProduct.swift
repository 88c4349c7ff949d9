/// Σ a[i] × b[i] over `count` floats, sixteen partial sums side by side (two vectors of eight: one vector's adds
/// still wait on each other): a plain sum is one long dependency chain (the compiler may not reorder float
/// additions), many times slower. Any alignment; allocates nothing.
@inline(__always)
func dotProduct(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Float {
    let x = UnsafeRawPointer(a), y = UnsafeRawPointer(b)
    let stride = MemoryLayout<Float>.stride
    var lanes = SIMD8<Float>(), more = SIMD8<Float>()
    var i = 0
    while i + 16 <= count {
        lanes += x.loadUnaligned(fromByteOffset: i * stride, as: SIMD8<Float>.self)
            * y.loadUnaligned(fromByteOffset: i * stride, as: SIMD8<Float>.self)
        more += x.loadUnaligned(fromByteOffset: (i + 8) * stride, as: SIMD8<Float>.self)
            * y.loadUnaligned(fromByteOffset: (i + 8) * stride, as: SIMD8<Float>.self)
        i += 16
    }
    if i + 8 <= count {
        lanes += x.loadUnaligned(fromByteOffset: i * stride, as: SIMD8<Float>.self)
            * y.loadUnaligned(fromByteOffset: i * stride, as: SIMD8<Float>.self)
        i += 8
    }
    var sum = (lanes + more).sum()
    while i < count {
        sum += a[i] * b[i]
        i += 1
    }
    return sum
}
