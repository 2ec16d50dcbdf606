import BudgetTime
import BackgroundBudgetRuntime

/// A deterministic 64-bit fingerprint of a value's stored properties, walked by reflection.
///
/// The explorer's seen-set keys states by it. Instants are taken relative to `now`, so two states that
/// differ only by when they happen share a fingerprint; dictionaries and sets are combined without
/// regard to order; objects nested in the value are skipped (their identity is not state). The same
/// value gives the same fingerprint in every process.
struct StateFingerprint {
    private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325
    let now: BudgetInstant

    /// Stored properties that are the same in every state of a run, skipped.
    static let constantLabels: Set<String> = ["policy", "retention", "manifest", "factors"]

    init(now: BudgetInstant) {
        self.now = now
    }

    /// Mixes 64 bits in (a SplitMix64 finaliser over the running value).
    mutating func mix(_ bits: UInt64) {
        var z = (value ^ bits) &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        value = z ^ (z >> 31)
    }

    /// Mixes a string in, byte by byte (FNV-1a), then its length.
    mutating func mix(_ text: String) {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        mix(hash)
        mix(UInt64(text.utf8.count))
    }

    /// Mixes a value in: its leaves, or its children in order, recursively.
    mutating func mix(any value: Any, depth: Int = 0) {
        // One type lookup instead of a chain of failed casts: most nodes are not leaves of these types.
        switch ObjectIdentifier(type(of: value)) {
        case Self.int: mix(UInt64(bitPattern: Int64(value as! Int)))
        case Self.int64: mix(UInt64(bitPattern: value as! Int64))
        case Self.uint64: mix(value as! UInt64)
        case Self.bool: mix((value as! Bool) ? 1 : 2)
        case Self.string: mix(value as! String)
        case Self.double: mix((value as! Double).bitPattern)
        case Self.instant: mix(UInt64(bitPattern: (value as! BudgetInstant).nanoseconds &- now.nanoseconds))
        case Self.duration:
            let duration = value as! Duration
            mix(UInt64(bitPattern: duration.components.seconds))
            mix(UInt64(bitPattern: duration.components.attoseconds))
        default: mixChildren(of: value, depth: depth)
        }
    }

    private static let int = ObjectIdentifier(Int.self), int64 = ObjectIdentifier(Int64.self),
                       uint64 = ObjectIdentifier(UInt64.self), bool = ObjectIdentifier(Bool.self),
                       string = ObjectIdentifier(String.self), double = ObjectIdentifier(Double.self),
                       instant = ObjectIdentifier(BudgetInstant.self), duration = ObjectIdentifier(Duration.self)

    /// A value of one byte or none (an enum without payloads), as that byte.
    private static func smallBits<T>(_ value: T) -> UInt64? {
        guard MemoryLayout<T>.size <= 1 else { return nil }
        return withUnsafeBytes(of: value) { bytes in bytes.first.map(UInt64.init) ?? 0 }
    }

    private mutating func mixChildren(of value: Any, depth: Int) {
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .class where depth > 0:
            mix(String(describing: mirror.subjectType))
        case .dictionary, .set:
            // Order-free: the sum of each element's own fingerprint.
            var sum: UInt64 = 0
            for child in mirror.children {
                var element = StateFingerprint(now: now)
                element.mix(any: child.value, depth: depth + 1)
                sum &+= element.value
            }
            mix(sum)
            mix(UInt64(mirror.children.count))
        default:
            if mirror.children.isEmpty {
                if mirror.displayStyle == .enum, let bits = Self.smallBits(value) {
                    mix(bits)
                } else {
                    mix(String(describing: value))
                }
                return
            }
            for child in mirror.children {
                // What never changes after installation: the policy, the trace's retention, each manifest.
                if let label = child.label, Self.constantLabels.contains(label) { continue }
                mix(any: child.value, depth: depth + 1)
            }
            mix(UInt64(mirror.children.count))
        }
    }
}
