import BudgetTime
import BudgetClock
import Foundation
import Testing

/// A test that starts a child process again and again and kills each one with `SIGKILL` at a random
/// moment, checking what the child leaves behind after every kill.
///
/// The rounds run on a thread of their own (they block in `poll` and `waitpid` for seconds), so a
/// loop collects its failures as text, and ``run(seed:sourceLocation:)`` records them as issues once
/// the loop is done:
///
/// ```swift
/// struct SaverKills: SigkillLoop {
///     var failures: [String] = []
///     var rounds = 0
///     mutating func performRounds(killer: inout RandomKiller) throws {
///         while rounds < 12, failures.isEmpty {
///             rounds += 1
///             let child = try ChildProcess(executable: saver, arguments: [folder.path])
///             let lines = killer.kill(child, within: .milliseconds(12))
///             // check the folder and `lines`; append to `failures` what is wrong
///         }
///     }
/// }
/// let run = await SaverKills().run(seed: 1)
/// ```
package protocol SigkillLoop: Sendable {
    /// What went wrong, in words; each becomes an issue.
    var failures: [String] { get set }
    /// The rounds so far; an error thrown out of ``performRounds(killer:)`` is reported with it.
    var rounds: Int { get }
    /// Performs the rounds. Throwing stops the loop; the error becomes a failure.
    mutating func performRounds(killer: inout RandomKiller) throws
}

extension SigkillLoop {
    /// Performs the rounds on a dedicated thread with a killer seeded with `seed`, then records each
    /// failure as an issue at `sourceLocation`.
    /// - Returns: The loop after its last round, for its counts.
    package func run(seed: UInt64, sourceLocation: SourceLocation = #_sourceLocation) async -> Self {
        let start = self
        let done = await onDedicatedThread { () -> Self in
            var loop = start
            var killer = RandomKiller(seed: seed)
            do {
                try loop.performRounds(killer: &killer)
            } catch {
                loop.failures.append("round \(loop.rounds): \(error)")
            }
            return loop
        }
        for failure in done.failures { Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation) }
        return done
    }
}

/// The random side of a ``SigkillLoop``: the draws that decide where a round's kill lands, and the kill.
package struct RandomKiller {
    private var random: SplitMix64
    /// Never signalled: a bounded wait, not a sleep on a clock under test.
    private let pause = DispatchSemaphore(value: 0)

    /// A killer whose draws follow `seed`, so a failing run can be replayed.
    package init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    /// A random number in `0..<bound`, for a loop's own choices (how many lines to wait for).
    package mutating func next(below bound: UInt64) -> UInt64 {
        random.next(below: bound)
    }

    /// Waits a random time shorter than `window`, kills `child` with `SIGKILL` and waits for it to end.
    /// - Returns: The lines the child wrote that had not been read yet.
    package mutating func kill(_ child: ChildProcess, within window: Duration) -> [String] {
        let microseconds = UInt64(max(1, (window / .microseconds(1)).rounded(.down)))
        _ = pause.wait(timeout: .now() + .microseconds(Int(random.next(below: microseconds))))
        child.kill()
        return child.remainingLines()
    }
}
