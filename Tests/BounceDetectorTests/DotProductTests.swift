import Testing
@testable import BounceDetector

@Suite("Dot product")
struct DotProductTests {
    @Test("every length and offset sums every product once, as a plain sum does (to rounding)",
          arguments: [0, 1, 7, 8, 9, 15, 16, 17, 24, 33, 360])
    func matchesPlainSum(count: Int) {
        let a = (0..<(count + 3)).map { Float(($0 * 37) % 11) - 5 }
        let b = (0..<(count + 3)).map { Float(($0 * 13) % 7) * 0.5 - 1 }
        for offset in 0..<3 {
            let plain = (0..<count).reduce(Float(0)) { $0 + a[offset + $1] * b[offset + $1] }
            let fast = a.withUnsafeBufferPointer { x in
                b.withUnsafeBufferPointer { y in
                    dotProduct(x.baseAddress! + offset, y.baseAddress! + offset, count: count)
                }
            }
            #expect(fast == plain, "count \(count), offset \(offset)")  // small integers: exact in any order
        }
    }

    @Test("two dot products in one pass are each bit for bit the single one's (noise, where the order of the sums matters)",
          arguments: [0, 1, 7, 8, 9, 15, 16, 17, 24, 33, 312, 360])
    func pairMatchesSingle(count: Int) {
        var noise = TestNoise(seed: UInt64(count + 1))
        let a = (0..<(count + 8)).map { _ in noise.next() }
        let b = (0..<count).map { _ in noise.next() }
        a.withUnsafeBufferPointer { x in
            b.withUnsafeBufferPointer { y in
                let (first, second) = dotProducts(x.baseAddress!, x.baseAddress! + 4, y.baseAddress!, count: count)
                #expect(first == dotProduct(x.baseAddress!, y.baseAddress!, count: count), "count \(count)")
                #expect(second == dotProduct(x.baseAddress! + 4, y.baseAddress!, count: count), "count \(count)")
            }
        }
    }
}
