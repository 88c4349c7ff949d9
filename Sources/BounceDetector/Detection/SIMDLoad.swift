/// Eight floats from `pointer`, any alignment: the detector's vector loops read their buffers this way.
@inline(__always)
func loadEight(_ pointer: UnsafePointer<Float>) -> SIMD8<Float> {
    UnsafeRawPointer(pointer).loadUnaligned(as: SIMD8<Float>.self)
}
