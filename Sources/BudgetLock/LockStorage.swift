#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// The storage of a ``LockedValue``: the value in the header, the platform lock as the single element,
/// so that the lock has a stable address for its whole life.
@usableFromInline
final class LockStorage<Value>: ManagedBuffer<Value, LockStorage.Primitive> {
    #if canImport(Darwin)
    @usableFromInline typealias Primitive = os_unfair_lock
    #else
    @usableFromInline typealias Primitive = pthread_mutex_t
    #endif

    static func make(_ value: Value) -> LockStorage {
        let buffer = create(minimumCapacity: 1) { _ in value }
        // `create` returns the dynamic type, which is always `LockStorage` here.
        let storage = unsafeDowncast(buffer, to: LockStorage.self)
        storage.withUnsafeMutablePointerToElements { lock in
            #if canImport(Darwin)
            lock.initialize(to: os_unfair_lock())
            #else
            lock.initialize(to: pthread_mutex_t())
            var attributes = pthread_mutexattr_t()
            pthread_mutexattr_init(&attributes)
            // Error checking costs a few nanoseconds and turns misuse (unlocking from another thread)
            // into a failed call instead of undefined behaviour; only in debug builds.
            #if DEBUG
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
            #endif
            let result = pthread_mutex_init(lock, &attributes)
            pthread_mutexattr_destroy(&attributes)
            precondition(result == 0, "pthread_mutex_init failed with \(result)")
            #endif
        }
        return storage
    }

    deinit {
        // The header (the value) is destroyed by `ManagedBuffer` itself; the element is ours.
        withUnsafeMutablePointerToElements { lock in
            #if !canImport(Darwin)
            let result = pthread_mutex_destroy(lock)
            precondition(result == 0, "pthread_mutex_destroy failed with \(result): the lock is held")
            #endif
            lock.deinitialize(count: 1)
        }
    }

    @inlinable
    func withLock<Result, E: Error>(
        _ body: (inout Value) throws(E) -> Result
    ) throws(E) -> Result {
        try withUnsafeMutablePointers { (value, lock) throws(E) -> Result in
            Self.lock(lock)
            defer { Self.unlock(lock) }
            return try body(&value.pointee)
        }
    }

    @inlinable
    static func lock(_ lock: UnsafeMutablePointer<Primitive>) {
        #if canImport(Darwin)
        os_unfair_lock_lock(lock)
        #else
        let result = pthread_mutex_lock(lock)
        precondition(result == 0, "pthread_mutex_lock failed with \(result)")
        #endif
    }

    @inlinable
    static func unlock(_ lock: UnsafeMutablePointer<Primitive>) {
        #if canImport(Darwin)
        os_unfair_lock_unlock(lock)
        #else
        let result = pthread_mutex_unlock(lock)
        precondition(result == 0, "pthread_mutex_unlock failed with \(result)")
        #endif
    }
}
