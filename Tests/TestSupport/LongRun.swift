import Foundation
import Testing

/// The switch for the long suites: the SIGKILL crash test at full length, the big seeded property runs
/// and the real-time tests. `swift test` alone runs each property test on a few hundred cases and skips
/// the real-time suites, so it stays fast; `BGBUDGET_LONG_TESTS=1 swift test` (what `.ci/run` does) runs
/// everything at full size.
///
/// `BGBUDGET_LONG_TESTS=threads` is the setting for a sanitizer pass: the long suites and the property
/// runs whose point is how threads interleave (``threadedCases(_:quick:)``) at full size, and the big
/// single-threaded property runs (``cases(_:quick:)``) at their quick size, since a thread sanitizer has
/// nothing to find in code that one thread runs alone. `.ci/run` runs its ThreadSanitizer pass so.
package enum LongRun {
    /// What the environment asks for: `BGBUDGET_LONG_TESTS` is `1` or `threads`, or neither.
    private static let setting = ProcessInfo.processInfo.environment["BGBUDGET_LONG_TESTS"]

    /// Whether the environment asks for everything at full size (`BGBUDGET_LONG_TESTS=1`).
    package static let isOn: Bool = setting == "1"

    /// Whether the long suites run: with `BGBUDGET_LONG_TESTS=1` or `threads`.
    package static let suitesOn: Bool = isOn || setting == "threads"

    /// `full` when the long suites are on, `quick` otherwise (and with `threads`): the number of cases a
    /// single-threaded property test runs.
    package static func cases(_ full: Int, quick: Int) -> Int {
        isOn ? full : quick
    }

    /// `full` with `BGBUDGET_LONG_TESTS=1` or `threads`, `quick` otherwise: the size of a run whose
    /// point is how several threads or processes interleave.
    package static func threadedCases(_ full: Int, quick: Int) -> Int {
        suitesOn ? full : quick
    }

    /// The seed of a long run that tries new cases each day: `BGBUDGET_SEED` when set, else the
    /// number of the current UTC day since 1970. Over the days the runs cover more cases than one
    /// fixed seed would, and a failure is replayed by setting `BGBUDGET_SEED` to the seed it names.
    package static let dailySeed: UInt64 = number("BGBUDGET_SEED")
        .map(UInt64.init) ?? UInt64(Date().timeIntervalSince1970 / 86_400)

    /// A whole number from the environment variable `name`, or `nil` when it is unset or not one.
    package static func number(_ name: String) -> Int? {
        ProcessInfo.processInfo.environment[name].flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil }
    }

    /// A trait for suites that run only when the long suites are on (real time, crash tests).
    package static var only: ConditionTrait {
        .enabled(if: suitesOn, "a long suite: set BGBUDGET_LONG_TESTS=1 to run it")
    }
}
