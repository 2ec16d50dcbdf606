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
        /// How many times a firing was told to spin (tests read it).
        private(set) var spins = 0

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
        ///   firing waiting for a later instant.
        /// - Complexity: O(log n).
        @discardableResult
        mutating func schedule(_ work: @escaping @Sendable () -> Void, at deadline: Int64, now: Int64)
            -> (entry: DeadlineHeap<Work>.Handle?, arm: Int64?, wake: Bool)
        {
            guard !isShutDown else { return (nil, nil, false) }
            let due = max(deadline, now)
            let entry = queue.insert(deadline: due, payload: ClockWork(work))
            if isFiring {
                // Wake a waiting firing only for work earlier than what it waits for, once per instant.
                guard let waiting = waitingUntil, due < waiting else { return (entry, nil, false) }
                waitingUntil = due
                return (entry, nil, !isSpinning)
            }
            guard armedDeadline.map({ due < $0 }) ?? true else { return (entry, nil, false) }
            armedDeadline = due
            return (entry, due, false)
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
            armedDeadline = nil
            waitingUntil = nil
            isSpinning = false
            var dropped = DeadlineHeap<Work>()
            swap(&dropped, &queue)
            return dropped
        }
    }
}
