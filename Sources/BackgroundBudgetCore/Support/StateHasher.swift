import BudgetTime

/// A deterministic 64-bit hash of a state, mixed in field by field, with instants taken relative to
/// an instant `now`: two states that differ only by when they happen hash alike. The same fields give
/// the same value in every process (unlike `Hasher`, which is seeded per process).
package struct StateHasher {
    /// The hash so far.
    package private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325
    /// The instant instants are taken relative to.
    package let now: BudgetInstant

    /// A hasher for instants relative to `now`.
    package init(now: BudgetInstant) {
        self.now = now
    }

    /// Mixes 64 bits in (a SplitMix64 finaliser over the running value).
    package mutating func mix(_ bits: UInt64) {
        var z = (value ^ bits) &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        value = z ^ (z >> 31)
    }

    /// Mixes an integer in.
    package mutating func mix(_ number: Int) { mix(UInt64(bitPattern: Int64(number))) }
    /// Mixes an integer in.
    package mutating func mix(_ number: Int64) { mix(UInt64(bitPattern: number)) }
    /// Mixes a flag in.
    package mutating func mix(_ flag: Bool) { mix(flag ? 1 as UInt64 : 2) }
    /// Mixes a number in, by its bits.
    package mutating func mix(_ number: Double) { mix(number.bitPattern) }

    /// Mixes a string in, byte by byte (FNV-1a), then its length.
    package mutating func mix(_ text: String) {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        mix(hash)
        mix(UInt64(text.utf8.count))
    }

    /// Mixes an instant in, relative to ``now``.
    package mutating func mix(_ instant: BudgetInstant) { mix(instant.nanoseconds &- now.nanoseconds) }

    /// Mixes an optional instant in: a marker for `nil`, else the instant relative to ``now``.
    package mutating func mix(_ instant: BudgetInstant?) {
        if let instant { mix(instant) } else { mix(0x5EED_0000_0000_0001 as UInt64) }
    }

    /// Mixes a duration in.
    package mutating func mix(_ duration: Duration) {
        mix(duration.components.seconds)
        mix(UInt64(bitPattern: duration.components.attoseconds))
    }

    /// Mixes an optional duration in.
    package mutating func mix(_ duration: Duration?) {
        if let duration { mix(duration) } else { mix(0x5EED_0000_0000_0002 as UInt64) }
    }

    /// Mixes a raw-valued enumeration in, by its raw value.
    package mutating func mix<T: RawRepresentable>(raw value: T) where T.RawValue == String { mix(value.rawValue) }

    /// Mixes a value in by its description: for the few values whose fields are rarely present.
    package mutating func mix(describing value: some Any) { mix(String(describing: value)) }

    /// Mixes in a collection whose order means nothing: the sum of each element's own hash, and the count.
    package mutating func mixUnordered<C: Collection>(_ elements: C, _ element: (inout StateHasher, C.Element) -> Void) {
        var sum: UInt64 = 0
        for item in elements {
            var hasher = StateHasher(now: now)
            element(&hasher, item)
            sum &+= hasher.value
        }
        mix(sum)
        mix(elements.count)
    }
}
