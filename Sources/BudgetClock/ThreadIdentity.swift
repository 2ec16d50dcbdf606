#if canImport(Dispatch)
import Dispatch
#endif
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// A number for the calling thread, unique among the threads alive at the same time (a thread's
/// number may be reused after it exits). Used to tell whether code runs inside a handler that this
/// thread is delivering.
package func currentThreadIdentity() -> UInt {
    threadNumber(pthread_self())
}

// `pthread_t` is a pointer on Apple platforms and musl, an unsigned integer on glibc, a signed one on
// Android: one overload each.
private func threadNumber(_ thread: UInt) -> UInt { thread }
private func threadNumber(_ thread: Int) -> UInt { UInt(bitPattern: thread) }
private func threadNumber(_ thread: OpaquePointer) -> UInt { UInt(bitPattern: Int(bitPattern: thread)) }
private func threadNumber<T>(_ thread: UnsafeMutablePointer<T>) -> UInt { UInt(bitPattern: thread) }

/// A one-shot signal one thread waits on until another signals it: a Dispatch semaphore where
/// Dispatch exists, else a flag polled with `sched_yield`.
package final class OneShotSignal: Sendable {
    /// A signal not yet signalled.
    package init() {}

    #if canImport(Dispatch)
    private let semaphore = DispatchSemaphore(value: 0)

    /// Wakes the waiter (or lets its coming wait return at once).
    package func signal() { semaphore.signal() }

    /// Blocks until ``signal()`` has been called.
    package func wait() { semaphore.wait() }
    #else
    private let signalled = LockedValue(false)

    /// Wakes the waiter (or lets its coming wait return at once).
    package func signal() { signalled.withLock { $0 = true } }

    /// Blocks until ``signal()`` has been called.
    package func wait() {
        while !signalled.withLock({ $0 }) { sched_yield() }
    }
    #endif
}
