import Foundation
import Testing

/// The switch for the long suites: the SIGKILL crash test at full length, the big seeded property runs
/// and the real-time tests. `swift test` alone runs each property test on a few hundred cases and skips
/// the real-time suites, so it stays fast; `BGBUDGET_LONG_TESTS=1 swift test` (what `.ci/run` does) runs
/// everything at full size.
package enum LongRun {
    /// Whether the environment asks for the long suites.
    package static let isOn: Bool = ProcessInfo.processInfo.environment["BGBUDGET_LONG_TESTS"] == "1"

    /// `full` when the long suites are on, `quick` otherwise: the number of cases a property test runs.
    package static func cases(_ full: Int, quick: Int) -> Int {
        isOn ? full : quick
    }

    /// A trait for suites that run only when the long suites are on (real time, crash tests).
    package static var only: ConditionTrait {
        .enabled(if: isOn, "a long suite: set BGBUDGET_LONG_TESTS=1 to run it")
    }
}
