import Testing
import BudgetTime

@Suite struct SeededRandomTests {
    @Test func producesThePublishedSplitMix64Stream() {
        // The reference implementation's first outputs for seed 0.
        let expected: [UInt64] = [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F]
        var random = SplitMix64(seed: 0)
        #expect((0..<3).map { _ in random.next() } == expected)
    }

    @Test func equalSeedsReplayAndDifferentSeedsDiffer() {
        var a = SplitMix64(seed: 99)
        var b = SplitMix64(seed: 99)
        var c = SplitMix64(seed: 100)
        let streamA = (0..<16).map { _ in a.next(below: 1000) }
        #expect(streamA == (0..<16).map { _ in b.next(below: 1000) })
        #expect(streamA != (0..<16).map { _ in c.next(below: 1000) })
    }

    @Test func boundedValuesStayInRangeAndCoverIt() {
        var random = SplitMix64(seed: 7)
        var seen = Set<Int64>()
        for _ in 0..<2_000 {
            let value = random.next(in: -3...3)
            #expect((-3...3).contains(value))
            seen.insert(value)
            #expect(random.next(below: 1) == 0)
        }
        #expect(seen == Set(-3...3))
        #expect((Int64.min...Int64.max).contains(random.next(in: Int64.min...Int64.max)))
    }

    @Test func worksWithStandardLibraryRandomAPIs() {
        var random = SplitMix64(seed: 1)
        var copy = random
        #expect([1, 2, 3, 4, 5].shuffled(using: &random) == [1, 2, 3, 4, 5].shuffled(using: &copy))
    }
}

@Suite struct MisuseTrapTests {
    @Test func boundedRandomWithZeroBoundTraps() async {
        await #expect(processExitsWith: .failure) {
            var random = SplitMix64(seed: 0)
            _ = random.next(below: 0)
        }
    }
}
