import BackgroundBudgetCore
import BudgetLock

/// An app's notification center, shaped like `NotificationCenter.default`: the system posts the
/// lifecycle notifications to it, and an SDK that does not own the app delegate observes them.
///
/// Reach it as app code reaches `NotificationCenter.default`: ``Application/notificationCenter``, or
/// `Application.current?.notificationCenter` from code that has no application at hand.
///
/// ```swift
/// let token = application.notificationCenter.addObserver(
///     forName: Application.willResignActiveNotification, object: nil, queue: nil
/// ) { _ in
///     flush()
/// }
/// application.notificationCenter.removeObserver(token)
/// ```
///
/// Observer blocks are the app's code. They run on the app's main queue as the system posts — right
/// after the delegate callback the notification goes with, inside its time limit (the *Lifecycle
/// rules* article lists each instant) — so they are frozen while the app is suspended, and they never
/// run once the process has ended. An observer added by the app's code belongs to its process: it goes
/// when the process ends, as a relaunched process starts with an empty `NotificationCenter`. An
/// observer added by code that is not the app's (a test) stays for every launch. The trace records
/// `notificationObserved` with the count of observers each post ran, when it ran any.
public final class AppNotificationCenter: Sendable {
    struct Entry: Sendable {
        var name: AppNotification.Name?
        var object: (any Sendable)?
        var queue: ApplicationQueue?
        var block: @Sendable (AppNotification) -> Void
        /// The epoch of the process that added it, or `nil` for code that is not the app's.
        var process: UInt64?
    }

    struct Entries: Sendable {
        var entries: [(token: Int, entry: Entry)] = []
        var next = 0
    }

    /// The app's main queue: code that runs there (or on a queue the app made) is the app's.
    let queue: AppExecutor
    let entries = LockedValue(Entries())

    init(queue: AppExecutor) {
        self.queue = queue
    }

    /// The process of the calling code when it is the app's code, `nil` otherwise.
    private var appCodeProcess: ProcessContext? {
        guard let context = ProcessContext.current, context.executor === queue else { return nil }
        return context
    }

    /// Adds an observer (`addObserver(forName:object:queue:using:)`).
    /// - Parameters:
    ///   - name: The notifications to observe; `nil` for every name.
    ///   - object: Only notifications about this object (the same ``Application``, a ``Scene`` of the
    ///     same session); `nil` for any.
    ///   - queue: Where the block runs: `nil` runs it on the posting code's queue as the post is made
    ///     (the app's main queue, for the system's posts); a queue the app made runs it there,
    ///     after the work queued before it, without the post waiting for it.
    ///   - block: The observer; app code.
    /// - Returns: A token for ``removeObserver(_:)``. Code of a process that has ended adds nothing.
    @discardableResult
    public func addObserver(forName name: AppNotification.Name?, object: (any Sendable)?, queue: ApplicationQueue?,
                            using block: @escaping @Sendable (AppNotification) -> Void) -> AppNotificationObserver {
        let process = appCodeProcess
        return entries.withLock { entries in
            let token = entries.next
            entries.next += 1
            if process?.isEnded != true {
                entries.entries.append((token, Entry(name: name, object: object, queue: queue, block: block, process: process?.epoch)))
            }
            return AppNotificationObserver(token: token, center: ObjectIdentifier(self))
        }
    }

    /// Removes an observer (`removeObserver(_:)`): its block runs no more, from now on. Removing one
    /// twice, one of another center, or one its process already took away, does nothing.
    public func removeObserver(_ observer: AppNotificationObserver) {
        guard observer.center == ObjectIdentifier(self) else { return }
        let removed = entries.withLock { entries -> Entry? in
            guard let index = entries.entries.firstIndex(where: { $0.token == observer.token }) else { return nil }
            return entries.entries.remove(at: index).entry
        }
        withExtendedLifetime(removed) {}   // the block is released here, outside the lock
    }

    /// The notifications of a name as an asynchronous sequence (`notifications(named:object:)`), from
    /// now until the stream is dropped or cancelled — or, when app code asked for it, until that
    /// process ends. Each element is buffered as it is posted.
    ///
    /// ```swift
    /// application.task {
    ///     for await _ in application.notificationCenter.notifications(named: Application.didEnterBackgroundNotification) {
    ///         await save()
    ///     }
    /// }
    /// ```
    public func notifications(named name: AppNotification.Name, object: (any Sendable)? = nil) -> AsyncStream<AppNotification> {
        let (stream, continuation) = AsyncStream<AppNotification>.makeStream()
        let end = StreamEnd(continuation)
        let token = addObserver(forName: name, object: object, queue: nil) { notification in
            end.continuation.yield(notification)
        }
        continuation.onTermination = { [weak self] _ in self?.removeObserver(token) }
        return stream
    }

    /// Posts a notification of the app's own (`post(name:object:)`): its observers run now, on the
    /// calling code's thread. The trace records nothing.
    public func post(name: AppNotification.Name, object: (any Sendable)? = nil) {
        _ = deliver(AppNotification(name: name, object: object))
    }

    /// Runs the observers of `notification` that belong to the calling code's process (or to no
    /// process), in the order they were added, stopping if that process ends meanwhile.
    /// - Returns: How many ran (or were handed to their queue).
    func deliver(_ notification: AppNotification) -> Int {
        let process = appCodeProcess
        if process?.isEnded == true { return 0 }
        let matching = entries.withLock { entries in
            entries.entries.map(\.entry).filter { entry in
                guard entry.process == nil || entry.process == process?.epoch else { return false }
                if let name = entry.name, name != notification.name { return false }
                if let object = entry.object, !notification.isAbout(object) { return false }
                return true
            }
        }
        var ran = 0
        for entry in matching {
            if process?.isEnded == true { break }
            if let queue = entry.queue {
                queue.async { entry.block(notification) }
            } else {
                entry.block(notification)
            }
            ran += 1
        }
        return ran
    }

    /// Takes away the observers of the process of `epoch`, which has ended: returned to be released
    /// outside the caller's lock (releasing a block may run an app's `deinit`, and ends the
    /// process's notification sequences).
    func takeObservers(ofProcess epoch: UInt64) -> [any Sendable] {
        entries.withLock { entries in
            let (ended, kept) = (entries.entries.filter { $0.entry.process == epoch }, entries.entries.filter { $0.entry.process != epoch })
            entries.entries = kept
            return ended.map(\.entry)
        }
    }

    /// Whether an observer of the current process, or of none, would receive a notification of `name`.
    func hasObservers(of name: AppNotification.Name, process epoch: UInt64) -> Bool {
        entries.withLock { entries in
            entries.entries.contains { ($0.entry.process == nil || $0.entry.process == epoch) && ($0.entry.name ?? name) == name }
        }
    }
}

/// A token for an observer of an ``AppNotificationCenter``; pass it to
/// ``AppNotificationCenter/removeObserver(_:)``.
public struct AppNotificationObserver: Sendable, Hashable {
    let token: Int
    let center: ObjectIdentifier
}

/// Ends a notification sequence when the observer that feeds it is released: at the end of the process
/// that asked for it, or when the observer is removed.
private final class StreamEnd: Sendable {
    let continuation: AsyncStream<AppNotification>.Continuation

    init(_ continuation: AsyncStream<AppNotification>.Continuation) {
        self.continuation = continuation
    }

    deinit {
        continuation.finish()
    }
}
