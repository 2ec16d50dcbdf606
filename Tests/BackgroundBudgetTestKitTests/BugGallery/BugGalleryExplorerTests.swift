import Foundation
import Testing
import TestSupport

extension Gallery {
    /// Every entry of the gallery, in the article's order.
    static let bugs: [GalleryBug] = [
        StaleCaptureUpload.bug, LocationTaskNeverEnded.bug, RetryHoldsTask.bug, SharedTaskIdentifier.bug,
        ConverterEndsOnlyOnError.bug, FlushEndsOnlyAtExpiry.bug, RefreshCompletesAfterCancel.bug,
        ExpiryOnlyDisconnects.bug, ResignOverwritesTaskID.bug, SubmitWithoutRegistering.bug,
    ]
}

/// The explorer on the gallery: each bug found on its own from random walks and shrunk to a minimal
/// sequence; each fix passing random walks and the exhaustive search.
///
/// `swift test` runs one seed, 30 walks and the exhaustive search to depth 2; the long suite
/// (`BGBUDGET_LONG_TESTS=1`) runs 100 seeds, the exhaustive search to depth 6 and, on each fix, 20,000
/// walks from a seed that changes every day (``LongRun/dailySeed``; `BGBUDGET_GALLERY_WALKS` sets the
/// number: 100,000 from seed 1 is the run the gallery's article reports).
/// Every exploration runs under a real-time backstop, so one that never returned (a shrinker that
/// loops) fails its test instead of hanging the suite; the gallery's menu waits are chosen so that
/// today's shrinker always returns (see ``Gallery/menu(_:)``).
@Suite struct BugGalleryExplorerTests {
    /// The backstop for one exploration: far above what it takes on a loaded machine.
    static let backstop: Double = LongRun.suitesOn ? 4 * 3_600 : 120

    @Test(arguments: Gallery.bugs)
    func theExplorerFindsTheBugBeforeTheFixAndShrinksItToAMinimalSequence(_ bug: GalleryBug) throws {
        let explorer = try bug.explorer(fixed: false)
        let seeds = UInt64(LongRun.cases(100, quick: 1))
        let finds = Gallery.guarded(seconds: Self.backstop) {
            (1...seeds).map { explorer.randomWalks(seed: $0, sequences: 1_000).failures.first }
        }
        let failures = try #require(finds, "the exploration did not return within \(Self.backstop) s")
        let found = failures.compactMap { $0 }
        // At least 95 of 100 seeds in the long suite; the one quick seed.
        #expect(found.count * 100 >= Int(seeds) * 95, "found from \(found.count) of \(seeds) seeds")
        for failure in found {
            #expect(failure.invariant == bug.invariant, "\(failure)")
            #expect(failure.events == bug.minimal, "\(failure)")
        }
        // The minimal sequence fails, and is 1-minimal: without any one of its events it does not.
        #expect(explorer.firstViolation(in: bug.minimal)?.invariant == bug.invariant)
        for index in bug.minimal.indices {
            var shorter = bug.minimal
            shorter.remove(at: index)
            #expect(explorer.firstViolation(in: shorter)?.invariant != bug.invariant, "still fails without event \(index + 1)")
        }
    }

    /// Two neighbouring events of the minimal sequence swapped: where that still fails (the events
    /// commute), it shrinks back to the one minimal sequence.
    @Test(arguments: Gallery.bugs)
    func everyOrderOfTheMinimalSequenceThatFailsShrinksToTheSameOne(_ bug: GalleryBug) throws {
        let explorer = try bug.explorer(fixed: false)
        var commuting = 0
        for index in bug.minimal.indices.dropLast() {
            var swapped = bug.minimal
            swapped.swapAt(index, index + 1)
            guard explorer.firstViolation(in: swapped)?.invariant == bug.invariant else { continue }
            commuting += 1
            #expect(explorer.shrink(swapped, invariant: bug.invariant).events == bug.minimal, "\(swapped)")
        }
        // The network switch and opening the app commute; in the others no two neighbours do.
        #expect(commuting == (bug.name == RetryHoldsTask.bug.name ? 1 : 0))
    }

    @Test(arguments: Gallery.bugs)
    func theExhaustiveSearchFindsTheBugBeforeTheFixAtTheDepthOfItsMinimalSequence(_ bug: GalleryBug) throws {
        let explorer = try bug.explorer(fixed: false)
        let depth = bug.minimal.count
        // One level less finds nothing (checked in the long suite only, to keep `swift test` fast).
        let depths = LongRun.isOn ? [depth - 1, depth] : [depth]
        let reports = Gallery.guarded(seconds: Self.backstop) { depths.map { explorer.exhaustive(depth: $0) } }
        let done = try #require(reports, "the exploration did not return within \(Self.backstop) s")
        #expect(done.dropLast().allSatisfy { $0.failures.isEmpty }, "\(done)")
        let found = try #require(done.last)
        #expect(found.failures.map(\.invariant) == [bug.invariant], "\(found)")
        #expect(found.failures.map(\.events) == [bug.minimal], "\(found)")
    }

    @Test(arguments: Gallery.bugs)
    func theFixedVersionPassesRandomWalksAndTheExhaustiveSearch(_ bug: GalleryBug) throws {
        let explorer = try bug.explorer(fixed: true)
        let walks = LongRun.cases(LongRun.number("BGBUDGET_GALLERY_WALKS") ?? 20_000, quick: 30)
        let seed = LongRun.isOn ? LongRun.dailySeed : 1
        let depth = LongRun.cases(6, quick: 2)
        let reports = Gallery.guarded(seconds: Self.backstop) {
            [explorer.randomWalks(seed: seed, sequences: walks), explorer.exhaustive(depth: depth)]
        }
        let done = try #require(reports, "the exploration did not return within \(Self.backstop) s")
        #expect(done[0].sequencesTried == walks)
        #expect(done[1].statesSeen > depth)
        for report in done {
            #expect(report.failures.isEmpty, "walks from seed \(seed) (BGBUDGET_SEED replays them): \(report)")
        }
    }

    @Test func theArticleCitesEveryBugOfTheGallery() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let article = try String(contentsOf: root.appendingPathComponent(
            "Sources/BackgroundBudgetTestKit/BackgroundBudgetTestKit.docc/BugGallery.md"), encoding: .utf8)
        #expect(Gallery.bugs.count >= 6)
        #expect(Set(Gallery.bugs.map(\.name)).count == Gallery.bugs.count)
        for bug in Gallery.bugs {
            let parts = bug.name.split(separator: "#")
            let kind = article.contains("https://github.com/\(parts[0])/pull/\(parts[1])") ? "pull" : "issues"
            #expect(article.contains("https://github.com/\(parts[0])/\(kind)/\(parts[1])"), "\(bug.name) is not cited")
        }
    }
}
