/// A small, fast, seeded random number generator whose output is the same on every platform and
/// Swift version: the SplitMix64 generator (Steele, Lea and Flood, "Fast splittable pseudorandom
/// number generators", OOPSLA 2014), as used to seed the xoshiro family.
///
/// For tests and for library features that must replay exactly from a seed. It is not suitable
/// for anything secret.
///
/// The standard library's `random(in:using:)` helpers may change their algorithm between Swift
/// releases, so when the *values* (not only the raw stream) must replay across toolchains, use
/// ``next(below:)`` and ``next(in:)``, which are defined here.
///
/// ```swift
/// var random = SplitMix64(seed: 0)
/// random.next()                    // 0xE220A8397B1DCDAF, on every platform
/// random.next(below: 6)            // a die roll, 0...5
/// random.next(in: -5...5)          // an Int64 in -5...5
/// ```
package struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    /// The generator's entire state; a copy replays the same stream.
    package private(set) var state: UInt64

    /// Creates a generator that produces the stream for a seed.
    /// - Parameter seed: Any value; equal seeds give equal streams.
    package init(seed: UInt64) {
        state = seed
    }

    /// Returns the next 64 random bits.
    /// - Complexity: O(1).
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Returns a uniformly distributed value in `0 ..< bound`, by Lemire's multiply-and-reject method.
    /// - Parameter bound: The exclusive upper bound; must be positive.
    /// - Returns: A value below `bound`.
    /// - Complexity: O(1) expected.
    package mutating func next(below bound: UInt64) -> UInt64 {
        precondition(bound > 0, "SplitMix64.next(below:) needs a positive bound")
        var product = next().multipliedFullWidth(by: bound)
        if product.low < bound {
            let threshold = (0 &- bound) % bound
            while product.low < threshold {
                product = next().multipliedFullWidth(by: bound)
            }
        }
        return product.high
    }

    /// Returns a uniformly distributed value in a closed range.
    /// - Parameter range: The values to choose from.
    /// - Returns: A value in `range`.
    /// - Complexity: O(1) expected.
    package mutating func next(in range: ClosedRange<Int64>) -> Int64 {
        let span = UInt64(bitPattern: range.upperBound &- range.lowerBound)
        let offset = span == .max ? next() : next(below: span &+ 1)
        return range.lowerBound &+ Int64(bitPattern: offset)
    }
}
