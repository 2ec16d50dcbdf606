import Synchronization

/// A `Mutex` in a class, so two threads can share it.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class MutexBox: Sendable {
    let mutex = Mutex(0)
}
