/// Natural logarithm of a positive, finite float to about 1e-7 relative, without a libm call.
///
/// The exponent comes from the bits; the mantissa, normalised into [0.75, 1.5), goes through
/// ln(1 + m) = 2·atanh(m / (2 + m)), whose odd series converges fast there.
@inline(__always)
func fastLog(_ x: Float) -> Float {
    var bits = x.bitPattern
    // Normalise the mantissa into [0.75, 1.5) so the approximation is centred on 1.
    let exponent = Int32(bitPattern: (bits &- 0x3F40_0000) & 0xFF80_0000) >> 23
    bits = bits &- UInt32(bitPattern: exponent << 23)
    let m = Float(bitPattern: bits) - 1
    let r = m / (2 + m)
    let r2 = r * r
    let log1p = 2 * r * (1 + r2 * (0.333_333_33 + r2 * (0.2 + r2 * 0.142_857_14)))
    return Float(exponent) * 0.693_147_18 + log1p
}

/// `fastLog` of eight floats at once, lane for lane the same arithmetic (so bit for bit the same results).
@inline(__always)
func fastLog(_ x: SIMD8<Float>) -> SIMD8<Float> {
    var bits = unsafeBitCast(x, to: SIMD8<UInt32>.self)
    let exponent = SIMD8<Int32>(truncatingIfNeeded: (bits &- 0x3F40_0000) & 0xFF80_0000) &>> 23
    bits = bits &- SIMD8<UInt32>(truncatingIfNeeded: exponent &<< 23)
    let m = unsafeBitCast(bits, to: SIMD8<Float>.self) - 1
    let r = m / (2 + m)
    let r2 = r * r
    let log1p = 2 * r * (1 + r2 * (0.333_333_33 + r2 * (0.2 + r2 * 0.142_857_14)))
    return SIMD8<Float>(exponent) * 0.693_147_18 + log1p
}
