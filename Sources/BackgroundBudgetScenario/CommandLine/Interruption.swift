import BudgetLock
// Foundation for Dispatch and its signal sources.
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Ctrl-C for `bgbudget explore`: while one exists, `SIGINT` no longer ends the process; a Dispatch
/// signal source counts it instead, on a queue of its own. The first one asks the search to stop
/// (``flag``) and says so on standard error; the second ends the process at once, with status 130.
/// When it is released the signal's default action is restored.
final class Interruption {
    private let source: any DispatchSourceSignal
    private let count = LockedValue(0)

    init() {
        // Ignored, so that the signal is left for the source to see instead of ending the process.
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: DispatchQueue(label: "bgbudget.interruption"))
        let count = count
        source.setEventHandler {
            let seen = count.withLock { value -> Int in
                value += 1
                return value
            }
            if seen >= 2 { _exit(130) }
            _ = OutputFile.writeAll("\nbgbudget: interrupted: stopping with what was found so far (Ctrl-C again quits at once)\n", to: 2)
        }
        source.resume()
    }

    deinit {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }

    /// Whether Ctrl-C was pressed, for ``ScenarioCommand/run(_:progress:interrupted:)``.
    var flag: @Sendable () -> Bool {
        let count = count
        return { count.withLock { $0 > 0 } }
    }
}
