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

/// `dotProduct(a0, b, count)` and `dotProduct(a1, b, count)` in one pass over `b`, each summed in exactly the order
/// `dotProduct` sums it (so bit for bit its results): the templates' coarse search scores two lags of the window
/// against one template at once, loading the template once.
@inline(__always)
func dotProducts(_ a0: UnsafePointer<Float>, _ a1: UnsafePointer<Float>, _ b: UnsafePointer<Float>,
                 count: Int) -> (Float, Float) {
    let x0 = UnsafeRawPointer(a0), x1 = UnsafeRawPointer(a1), y = UnsafeRawPointer(b)
    let stride = MemoryLayout<Float>.stride
    var lanes0 = SIMD8<Float>(), more0 = SIMD8<Float>(), lanes1 = SIMD8<Float>(), more1 = SIMD8<Float>()
    var i = 0
    while i + 16 <= count {
        let low = y.loadUnaligned(fromByteOffset: i * stride, as: SIMD8<Float>.self)
        let high = y.loadUnaligned(fromByteOffset: (i + 8) * stride, as: SIMD8<Float>.self)
        lanes0 += x0.loadUnaligned(fromByteOffset: i * stride, as: SIMD8<Float>.self) * low
        more0 += x0.loadUnaligned(fromByteOffset: (i + 8) * stride, as: SIMD8<Float>.self) * high
        lanes1 += x1.loadUnaligned(fromByteOffset: i * stride, as: SIMD8<Float>.self) * low
        more1 += x1.loadUnaligned(fromByteOffset: (i + 8) * stride, as: SIMD8<Float>.self) * high
        i += 16
    }
    if i + 8 <= count {
        let low = y.loadUnaligned(fromByteOffset: i * stride, as: SIMD8<Float>.self)
        lanes0 += x0.loadUnaligned(fromByteOffset: i * stride, as: SIMD8<Float>.self) * low
        lanes1 += x1.loadUnaligned(fromByteOffset: i * stride, as: SIMD8<Float>.self) * low
        i += 8
    }
    var sum0 = (lanes0 + more0).sum(), sum1 = (lanes1 + more1).sum()
    while i < count {
        sum0 += a0[i] * b[i]
        sum1 += a1[i] * b[i]
        i += 1
    }
    return (sum0, sum1)
}
