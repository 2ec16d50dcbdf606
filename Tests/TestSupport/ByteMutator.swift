import BudgetTime
import BudgetClock

/// Seeded random edits of a file's bytes, for the tests that feed thousands of mutated files to a
/// loader (Info.plists, scenario files): the pick of a seed file, the number of edits, and the edits
/// every format shares. Each test adds the edits that mean something to its own format.
///
/// ```swift
/// var mutator = ByteMutator(seed: 7)
/// let file = mutator.mutatedFile(from: seeds) { bytes, mutator in
///     let at = mutator.index(bytes.count + 1)
///     switch mutator.next(below: 3) {
///     case 0: mutator.flipBit(in: &bytes, at: at)
///     case 1: mutator.deleteFewBytes(from: &bytes, at: at)
///     default: ByteMutator.truncate(&bytes, at: at)
///     }
/// }
/// ```
package struct ByteMutator {
    private var random: SplitMix64

    /// A mutator whose draws follow `seed`, so the files are the same on every run.
    package init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    /// One of `seeds`, picked at random, after one to four calls of `edit`.
    package mutating func mutatedFile(from seeds: [[UInt8]], edit: (inout [UInt8], inout ByteMutator) -> Void) -> [UInt8] {
        var file = pick(seeds)
        for _ in 0...next(below: 3) { edit(&file, &self) }
        return file
    }

    /// A random number in `0..<bound`.
    package mutating func next(below bound: UInt64) -> UInt64 {
        random.next(below: bound)
    }

    /// A random index in `0..<bound`; `0` when `bound` is not positive.
    package mutating func index(_ bound: Int) -> Int {
        bound <= 0 ? 0 : Int(random.next(below: UInt64(bound)))
    }

    /// One of `choices` (not empty), picked at random.
    package mutating func pick<Element>(_ choices: [Element]) -> Element {
        choices[index(choices.count)]
    }

    /// Flips one random bit of the byte at `offset` (the last byte when `offset` is past it).
    package mutating func flipBit(in bytes: inout [UInt8], at offset: Int) {
        guard !bytes.isEmpty else { return }
        let bit = UInt8(index(8))
        bytes[min(offset, bytes.count - 1)] ^= 1 << bit
    }

    /// Removes 1 to 8 bytes from `offset`, fewer at the end.
    package mutating func deleteFewBytes(from bytes: inout [UInt8], at offset: Int) {
        bytes.removeSubrange(offset..<min(bytes.count, offset + 1 + index(8)))
    }

    /// Removes everything from `offset` on.
    package static func truncate(_ bytes: inout [UInt8], at offset: Int) {
        bytes.removeSubrange(offset...)
    }

    /// The offsets of the bytes that match, in one tight pass (generic `filter` is slow in debug builds).
    package static func offsets(in bytes: [UInt8], where matches: (UInt8) -> Bool) -> [Int] {
        bytes.withUnsafeBufferPointer { bytes in
            var found: [Int] = []
            for index in 0..<bytes.count where matches(bytes[index]) { found.append(index) }
            return found
        }
    }

    /// How many times `byte` occurs in `bytes`.
    package static func count(of byte: UInt8, in bytes: [UInt8]) -> Int {
        bytes.withUnsafeBufferPointer { bytes in
            var count = 0
            for index in 0..<bytes.count where bytes[index] == byte { count += 1 }
            return count
        }
    }
}
