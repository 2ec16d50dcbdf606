#if canImport(Dispatch)
import Dispatch

/// For the few real-time tests: waits, in bounded 5 ms steps, until `condition` holds or `seconds`
/// pass. A backstop, not a timing under test: a condition that holds returns at once.
/// - Returns: Whether the condition held before the time ran out.
package func waitUntil(seconds: Double, _ condition: () -> Bool) -> Bool {
    let pause = DispatchSemaphore(value: 0)
    let deadline = DispatchTime.now() + seconds
    while !condition() {
        if DispatchTime.now() > deadline { return false }
        _ = pause.wait(timeout: .now() + .milliseconds(5))
    }
    return true
}
#endif
