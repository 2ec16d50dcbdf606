extension DispatchClock {
    /// The work the clock runs.
    typealias Work = ClockWork

    /// Everything the clock's lock protects, as a pure state machine: each method changes the state
    /// and tells the owner what to do with the timer. No threads, no time; tests drive it directly.
    ///
    /// The timer is one-shot. ``armedDeadline`` is the deadline it is armed for, and the owner arms
    /// it only when a method returns a deadline, which happens when the earliest pending deadline
    /// moves earlier than what the timer is armed for, or when a firing finishes with work left.
    /// While a firing runs (``isFiring``) nothing is armed: the firing arms the timer itself when it
    /// finishes, so work scheduled meanwhile never costs a second arm. A firing that finds the next
    /// deadline at most ``inlineWaitLimit`` away waits for it on its own thread instead of finishing
    /// (``FiringStep/wait(until:)``, or ``FiringStep/spin(until:)`` when it is at most ``spinLimit``
    /// away); work scheduled earlier than that meanwhile must wake it.
    struct State: Sendable {
        /// How far ahead a firing waits for the next deadline itself rather than arming the timer;
        /// zero never waits.
        let inlineWaitLimit: Int64
        /// How near the next deadline must be for a firing to spin for it rather than sleep; a
        /// sleeping wait ends this long before its deadline, and the firing spins the rest.
        let spinLimit: Int64
        /// The instant a firing waits for on its own thread, or `nil` when it is not waiting.
        private(set) var waitingUntil: Int64?
        /// Whether the waiting firing spins rather than sleeps: it watches ``waitingUntil`` and needs
        /// no wake-up signal.
        private(set) var isSpinning = false
        /// Pending work by deadline, in nanoseconds since the clock's origin.
        private(set) var queue = DeadlineHeap<Work>()
        /// The deadline the timer is armed for, or `nil` while it is not armed.
        private(set) var armedDeadline: Int64?
        /// Whether the timer's handler is between ``beginFiring()`` and the ``FiringStep/finish(arm:)``
        /// that ends it.
        private(set) var isFiring = false
        /// Whether ``shutDown()`` has run; the clock then takes no more work.
        private(set) var isShutDown = false
        /// Whether the owner has a ``sortAhead()`` call coming.
        private(set) var isSortAheadPending = false
        /// Whether work was scheduled since the pending ``sortAhead()`` was asked for or last looked.
        private(set) var scheduledSinceSortAheadLooked = false
        /// How many times the pending ``sortAhead()`` has put the sort off because scheduling went on.
        private(set) var sortAheadDeferrals = 0
        /// How many sorts ahead have run (tests read it).
        private(set) var sortsAhead = 0
        /// How many times a firing was told to spin (tests read it).
        private(set) var spins = 0

        /// How many entries must be staged (scheduled ahead, unsorted; see ``DeadlineHeap``) for
        /// ``schedule(_:at:now:)`` to ask the owner for a ``sortAhead()``. Fewer sort in about a tenth
        /// of a millisecond (at roughly 30 ns each) when a firing needs them.
        static let sortAheadThreshold = 4_096
        /// How many times a ``sortAhead()`` puts the sort off while scheduling goes on: steady
        /// scheduling must not put it off forever.
        static let sortAheadMaxDeferrals = 4

        /// Whether staging holds enough to sort ahead: ``sortAheadThreshold`` entries, and at least
        /// half as many as the sorted run, since the sort merges with the whole run. So sorts ahead
        /// at most double the work of merging, which a firing would otherwise do when it needs them.
        var isWorthSortingAhead: Bool {
            queue.stagedKeys.count >= max(Self.sortAheadThreshold, queue.runLive / 2)
        }

        /// Creates an empty state.
        /// - Parameters:
        ///   - inlineWaitLimit: See ``inlineWaitLimit``.
        ///   - spinLimit: See ``spinLimit``; at most `inlineWaitLimit`.
        init(inlineWaitLimit: Int64 = 0, spinLimit: Int64 = 0) {
            precondition(0 <= spinLimit && spinLimit <= inlineWaitLimit, "DispatchClock: spin limit outside 0...inlineWaitLimit")
            self.inlineWaitLimit = inlineWaitLimit
            self.spinLimit = spinLimit
        }

        /// What the firing loop does next.
        enum FiringStep {
            /// Run this work item, then ask again.
            case run(Work)
            /// The next deadline is near: sleep on this thread until ``spinLimit`` before this
            /// instant (or until woken by earlier work), then ask again.
            case wait(until: Int64)
            /// The next deadline is at most ``spinLimit`` away: spin on this thread until this
            /// instant or until ``waitingUntil`` changes (earlier work, or shutdown), then ask again.
            case spin(until: Int64)
            /// Nothing more is due; arm the timer for this deadline (`nil`: leave it unarmed) and
            /// return from the handler.
            case finish(arm: Int64?)
        }

        /// Adds work due at `deadline`, or at `now` if `deadline` is earlier.
        /// - Returns: The entry's handle (`nil` after ``shutDown()``, when the work is not kept), the
        ///   deadline to arm the timer for, if it must be re-armed, whether the owner must wake a
        ///   firing waiting for a later instant, and whether it must call ``sortAhead()`` soon.
        /// - Complexity: O(log n).
        @discardableResult
        mutating func schedule(_ work: @escaping @Sendable () -> Void, at deadline: Int64, now: Int64)
            -> (entry: DeadlineHeap<Work>.Handle?, arm: Int64?, wake: Bool, sortAhead: Bool)
        {
            guard !isShutDown else { return (nil, nil, false, false) }
            let due = max(deadline, now)
            let entry = queue.insert(deadline: due, payload: ClockWork(work))
            let sortAhead = askForSortAhead()
            if isFiring {
                // Wake a waiting firing only for work earlier than what it waits for, once per instant.
                guard let waiting = waitingUntil, due < waiting else { return (entry, nil, false, sortAhead) }
                waitingUntil = due
                return (entry, nil, !isSpinning, sortAhead)
            }
            guard armedDeadline.map({ due < $0 }) ?? true else { return (entry, nil, false, sortAhead) }
            armedDeadline = due
            return (entry, due, false, sortAhead)
        }

        /// After an insert: whether to ask the owner for a ``sortAhead()`` (once per request), noting
        /// for a pending one that scheduling goes on.
        private mutating func askForSortAhead() -> Bool {
            if isSortAheadPending {
                scheduledSinceSortAheadLooked = true
                return false
            }
            guard isWorthSortingAhead else { return false }
            isSortAheadPending = true
            scheduledSinceSortAheadLooked = false
            sortAheadDeferrals = 0
            return true
        }

        /// Sorts the work scheduled ahead once scheduling has paused, so that the firing that
        /// reaches it need not (see ``DeadlineHeap/mergeStagingAhead()``).
        ///
        /// ``schedule(_:at:now:)`` asks for this call when staging ``isWorthSortingAhead``; the owner
        /// makes it a little later on its queue, after any firing under way. If work was scheduled
        /// since it was asked for or last looked, scheduling is still going on: the call sorts
        /// nothing and asks to be called again, up to ``sortAheadMaxDeferrals`` times, so a bulk of
        /// scheduling is sorted once, after its last item, and steady scheduling every few looks.
        /// The sort holds the clock's lock and queue like a firing's own merge would: deadlines due
        /// meanwhile wait for it.
        /// - Returns: Whether the owner must call again a little later.
        /// - Complexity: O(s + r) for s staged and r sorted entries when it sorts; else O(1).
        mutating func sortAhead() -> Bool {
            guard isSortAheadPending, !isShutDown, isWorthSortingAhead else {
                isSortAheadPending = false
                return false
            }
            if scheduledSinceSortAheadLooked && sortAheadDeferrals < Self.sortAheadMaxDeferrals {
                scheduledSinceSortAheadLooked = false
                sortAheadDeferrals += 1
                return true
            }
            queue.mergeStagingAhead()
            sortsAhead += 1
            isSortAheadPending = false
            return false
        }

        /// Removes pending work.
        ///
        /// The timer stays armed even if this was the earliest work: it fires once for nothing and
        /// re-arms for what is left, which costs less than re-arming on every cancel.
        /// - Returns: The removed work, for the owner to release after unlocking; `nil` if the handle
        ///   names nothing pending.
        /// - Complexity: O(log n).
        mutating func cancel(_ entry: DeadlineHeap<Work>.Handle) -> Work? {
            queue.remove(entry)
        }

        /// The timer fired: it is no longer armed, and the handler owns arming until it finishes.
        mutating func beginFiring() {
            precondition(!isFiring, "DispatchClock: the timer handler ran twice at once")
            isFiring = true
            armedDeadline = nil
        }

        /// Takes the earliest work due at or before `limit`, in (deadline, scheduling) order.
        /// - Returns: The work, or `nil` when none is due by `limit` (or the clock is shut down).
        /// - Complexity: O(log n).
        mutating func popDue(through limit: Int64) -> Work? {
            queue.popFirst(ifDueBy: limit)?.payload
        }

        /// Called by the firing loop when nothing was due by its last limit, with a fresh reading of
        /// the time: either more work has fallen due meanwhile (run it), or the firing ends and the
        /// timer is armed for the earliest pending deadline.
        ///
        /// When the next deadline is at most ``inlineWaitLimit`` away, the firing goes on and waits
        /// for it (``FiringStep/wait(until:)``): re-arming the Dispatch timer costs two hand-offs
        /// between threads per deadline, a timed wait one. When it is at most ``spinLimit`` away,
        /// the firing spins for it (``FiringStep/spin(until:)``): a sleep that short would end later
        /// than the deadline, by the time the kernel takes to wake a thread.
        mutating func nextStep(now: Int64) -> FiringStep {
            precondition(isFiring, "DispatchClock: firing step outside a firing")
            waitingUntil = nil
            isSpinning = false
            if let work = popDue(through: now) { return .run(work) }
            guard !isShutDown, let next = queue.peekDeadline else {
                isFiring = false
                return .finish(arm: nil)
            }
            if next - now <= inlineWaitLimit {
                waitingUntil = next
                isSpinning = next - now <= spinLimit
                if isSpinning { spins += 1 }
                return isSpinning ? .spin(until: next) : .wait(until: next)
            }
            isFiring = false
            armedDeadline = next
            return .finish(arm: next)
        }

        /// Stops taking work and empties the queue.
        /// - Returns: The dropped queue, for the owner to release after unlocking; `nil` if the clock
        ///   was already shut down.
        mutating func shutDown() -> DeadlineHeap<Work>? {
            guard !isShutDown else { return nil }
            isShutDown = true
            isSortAheadPending = false
            armedDeadline = nil
            waitingUntil = nil
            isSpinning = false
            var dropped = DeadlineHeap<Work>()
            swap(&dropped, &queue)
            return dropped
        }
    }
}
