/// A value behind the platform's own lock: `os_unfair_lock` on Apple platforms, a
/// `pthread_mutex_t` elsewhere.
///
/// It is what the package uses for every piece of shared state, and it is public so that delegates,
/// tests and examples that share state across threads can do the same with one type:
///
/// ```swift
/// let seen = LockedValue<[String]>([])
/// seen.withLock { $0.append("didEnterBackground") }
/// let count = seen.withLock { $0.count }
/// ```
///
/// It has the shape of the standard library's `Synchronization.Mutex` but runs on older systems
/// (iOS 16, macOS 13 and their tvOS, watchOS and visionOS peers), and ThreadSanitizer understands it:
/// on Linux, `Mutex` is built on a futex that ThreadSanitizer does not model, so every access under
/// it is reported as a race; a `pthread_mutex_t` is intercepted and its ordering seen.
///
/// The lock is not recursive: calling `withLock` on the same value from inside its own body
/// deadlocks (on Apple platforms, `os_unfair_lock` traps instead). Keep the body short, and never call
/// code you do not control (a delegate, a handler) inside it.
public final class LockedValue<Value> {
    @usableFromInline let storage: LockStorage<Value>

    /// Puts a value behind a new lock.
    /// - Parameter initialValue: The value to protect.
    public init(_ initialValue: Value) {
        storage = LockStorage.make(initialValue)
    }

    /// Runs `body` with the lock held and exclusive access to the value.
    ///
    /// - Parameter body: Reads or changes the value; what it returns is returned.
    /// - Returns: What `body` returned.
    /// - Throws: What `body` threw; the lock is released either way.
    @inlinable
    public func withLock<Result, E: Error>(
        _ body: (inout Value) throws(E) -> Result
    ) throws(E) -> Result {
        try storage.withLock(body)
    }
}

// Why `@unchecked Sendable` is safe: the only stored property is `storage`, a constant. The value in it
// is read and written only inside `withLock`, with the lock held, so no two threads touch it at once;
// the lock itself lives at a fixed address (a `ManagedBuffer`'s element storage, never moved) and is
// used only through the platform's lock calls. The value is `Sendable`, so what `withLock` hands out
// of it may cross threads.
extension LockedValue: @unchecked Sendable where Value: Sendable {}
