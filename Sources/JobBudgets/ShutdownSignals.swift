#if canImport(Dispatch)
import BudgetLock
import BudgetClock
import Dispatch
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Turns `SIGTERM` and `SIGINT` into ``BudgetScheduler/shutdown(grace:)``, so a worker warns every
/// job at once and stops them all before the orchestrator's `SIGKILL`.
///
/// Kubernetes sends `SIGTERM`, waits `terminationGracePeriodSeconds` (30 s unless set) and then sends
/// `SIGKILL`; pick a grace a little shorter, so the jobs' hard stops and the process's exit come first.
/// A second signal shuts down with no grace at all: every job's hard stop is due at once.
///
/// ```swift
/// let scheduler = BudgetScheduler(clock: DispatchClock())
/// let signals = ShutdownSignals(scheduler: scheduler, grace: .seconds(25))
/// defer { signals.cancel() }                     // keeps it alive until the worker returns
/// // … run jobs until the queue is empty or scheduler.isShuttingDown …
/// ```
///
/// Keep the object referenced for as long as the worker should react to the signals, and call
/// ``cancel()`` at the end: `defer { signals.cancel() }` right after creating it does both (a local
/// that is never used again may otherwise be released early by the optimiser). Stop taking new jobs
/// in `onSignal` or as soon as ``BudgetScheduler/isShuttingDown`` turns `true`, so that jobs finishing
/// during the grace do not pull queued ones in.
///
/// It uses Dispatch signal sources and nothing else (the C library only names the signals and, on Apple
/// platforms, sets their action). On Apple platforms an empty handler replaces the signals' action
/// while it listens (kqueue delivers a signal to the source only when the signal's own action does
/// not end the process), and ``cancel()`` puts the previous action back. A handler, not `SIG_IGN`:
/// `exec` keeps an ignored signal ignored in the new program ([exec](https://pubs.opengroup.org/onlinepubs/009695399/functions/exec.html)),
/// so a child a job starts meanwhile would ignore `SIGTERM` and Ctrl-C, whereas a caught signal is
/// reset to its default. On Linux, Dispatch installs its own handler for them.
public final class ShutdownSignals: Sendable {
    /// The grace period of the first signal.
    public let grace: Duration
    private let sources: [Source]
    private let received = LockedValue<[Int32]>([])

    /// Starts listening for the signals, and returns once the signal sources are registered: a signal
    /// that comes after `init` has returned starts the shutdown, never the signal's default action.
    /// - Parameters:
    ///   - scheduler: The scheduler to shut down.
    ///   - grace: How long the jobs have after the first signal; 30 s (Kubernetes' default grace period)
    ///     by default.
    ///   - signals: The signal numbers to listen for; `SIGTERM` and `SIGINT` by default.
    ///   - onSignal: Called, on a private queue, after each signal's shutdown; for logging.
    public init(scheduler: BudgetScheduler, grace: Duration = .seconds(30), signals: [Int32] = [SIGTERM, SIGINT],
                onSignal: (@Sendable (Int32) -> Void)? = nil) {
        self.grace = grace
        let queue = DispatchQueue(label: "JobBudgets.ShutdownSignals")
        let received = self.received
        let registered = DispatchSemaphore(value: 0)
        sources = signals.map { number in
            #if canImport(Darwin)
            // kqueue delivers a signal to the source only when the signal's own action does not win:
            // an empty handler, which `exec` resets in a child (see above).
            var action = sigaction(__sigaction_u: __sigaction_u(__sa_handler: { _ in }), sa_mask: 0, sa_flags: SA_RESTART)
            var previous = sigaction()
            _ = sigaction(number, &action, &previous)
            #else
            let previous = 0
            #endif
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                let count = received.withLock { list in
                    list.append(number)
                    return list.count
                }
                scheduler.shutdown(grace: count == 1 ? grace : .zero)
                onSignal?(number)
            }
            source.setRegistrationHandler { registered.signal() }
            source.activate()
            return Source(number: number, source: source, previous: previous)
        }
        // Registration happens on Dispatch's own thread, after `activate` has returned.
        for _ in signals { registered.wait() }
    }

    /// The signals received so far, in order.
    public var receivedSignals: [Int32] { received.withLock { $0 } }

    /// Stops listening (and, on Apple platforms, puts back each signal's action from before `init`).
    public func cancel() {
        for source in sources {
            source.source.cancel()
            #if canImport(Darwin)
            var previous = source.previous
            _ = sigaction(source.number, &previous, nil)
            #endif
        }
    }

    /// A signal source, made `Sendable`.
    ///
    /// `@unchecked` is safe: a Dispatch source is a reference to a libdispatch object whose methods
    /// (`cancel`, `activate`, setting handlers) may be called from any thread; the Linux overlay's
    /// `DispatchSourceSignal` protocol just does not declare `Sendable`. The handler is set and the
    /// source activated once, in `init`, before the box is shared; afterwards only `cancel` is called.
    /// `previous` is a plain C value, written once in `init` and only read afterwards.
    private struct Source: @unchecked Sendable {
        let number: Int32
        let source: any DispatchSourceSignal
        #if canImport(Darwin)
        /// The signal's action before `init`, put back by `cancel`.
        let previous: sigaction
        #else
        /// Unused: Dispatch keeps the action on Linux.
        let previous: Int
        #endif
    }
}
#endif
