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
