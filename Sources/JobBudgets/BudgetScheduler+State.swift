import BudgetClock

/// The scheduler's bookkeeping, kept behind its lock.
extension BudgetScheduler {
    /// One budget's bookkeeping, kept small (48 bytes; the deadline heap adds 20 per budget): the
    /// name, the hard stop and the stop handler inline; a warning handler and its instant, a
    /// ceiling, links to a parent or children and a scope in a side table (``Extras``), only for
    /// budgets that have one.
    struct Record {
        var name: String
        /// Nanoseconds. While the slot is free: the next free slot plus one (zero: none).
        var stopAt: Int64
        var onStop: BudgetStopHandler?
        /// The budget's request number (``State/requests`` when it was granted): the budget's printed
        /// number, its place in the order budgets that fall due together stop in, and what tells a
        /// stale handle to a reused slot from the budget in it now.
        var generation: UInt32
        /// The index in ``State/extras`` plus one (low 30 bits; zero: none), whether the budget is live
        /// (bit 31), and whether `stopAt` is a shutdown's deadline, so that the stop reports `.shutdown` (bit 30).
        private var bits: UInt32 = 0

        init(name: String, stopAt: Int64, onStop: BudgetStopHandler?, generation: UInt32) {
            self.name = name
            self.stopAt = stopAt
            self.onStop = onStop
            self.generation = generation
        }

        var extras: UInt32 {
            get { bits & 0x3FFF_FFFF }
            set { bits = bits & 0xC000_0000 | newValue }
        }

        var isLive: Bool {
            get { bits & 0x8000_0000 != 0 }
            set { bits = newValue ? bits | 0x8000_0000 : bits & ~0x8000_0000 }
        }

        var stopsForShutdown: Bool {
            get { bits & 0x4000_0000 != 0 }
            set { bits = newValue ? bits | 0x4000_0000 : bits & ~0x4000_0000 }
        }
    }

    /// A deadline the clock never reaches: an unlimited budget's hard stop is `Int64.max` and its
    /// warning, pending until a shutdown, `neverDue` (`Int64.max` itself means "delivered or none").
    static let neverDue: Int64 = .max - 1

    /// One ``BudgetScope``'s bookkeeping.
    struct ScopeState: Sendable {
        /// The hard stop the scope's own shutdown set, if it was called.
        var shutdownAt: Int64?
        var liveCount = 0
        /// Tasks in ``BudgetScope/waitForShutdown()``.
        var shutdownWaiters = CountWaiters()
        /// The scope's live budgets without a parent, linked through their sibling links, newest
        /// first: the slot plus one of the first (zero: none).
        var firstMember: UInt32 = 0
        /// The slots of the scope's live budgets whose parent is in another scope (or none).
        var foreignMembers: [UInt32] = []
    }

    /// What only some budgets have, in ``State/extras``; the warning handler sits beside it, in
    /// ``State/warningHandlers`` at the same index, so that this struct holds only plain values and
    /// copying it is a copy of its bytes.
    struct Extras: Sendable {
        /// Nanoseconds; `Int64.max` once the warning is delivered, or when there is no warning handler
        /// (a warning nobody hears is never scheduled).
        var warnAt: Int64 = .max
        /// The latest `stopAt` an extension may reach; `Int64.max` for none.
        var ceiling: Int64 = .max
        /// Slot numbers plus one; zero means none.
        var parent: UInt32 = 0
        var firstChild: UInt32 = 0
        var previousSibling: UInt32 = 0
        var nextSibling: UInt32 = 0
        /// The ``BudgetScope`` the budget was requested in; zero for none.
        var scope: UInt32 = 0

        /// Whether an entry holds nothing a budget without one would not have (its warning handler
        /// aside).
        var isEmpty: Bool {
            warnAt == .max && ceiling == .max && parent == 0 && firstChild == 0 && scope == 0
        }
    }

    /// One entry of ``State/warningHandlers``. A struct rather than a bare optional closure: an
    /// array of closures stores each one behind a conversion thunk, one allocation per store and
    /// per load, where a struct's closure field is stored as it is.
    struct WarningSlot: Sendable {
        var handler: BudgetWarningHandler?
    }

    struct State: Sendable {
        var records: [Record] = []
        var freeHead: UInt32 = 0
        var liveCount = 0
        /// Each live budget's next deadline (its warning or its hard stop), keyed by slot.
        var deadlines = SlotHeap()
        /// The extras of the budgets that have any, indexed by their records' `extras` minus one.
        var extras: [Extras] = []
        /// The warning handler of each entry of `extras`, at the same index.
        var warningHandlers: [WarningSlot] = []
        /// Free indices of `extras`.
        var freeExtras: [UInt32] = []
        var timer: ScheduledWork?
        /// The clock work that runs the scheduler's deadlines, made once (holding the scheduler weakly)
        /// so that arming the clock timer allocates nothing.
        var fireWork: (@Sendable () -> Void)?
        /// Handlers of removed budgets, kept until the lock is released: dropping one may run a
        /// `deinit` of the caller's, which must not run under the lock.
        var released = ReleasedHandlers()
        /// The instant the clock timer is armed for. It may be earlier than the earliest deadline (it
        /// is not moved later when budgets end); when it fires early it is simply armed again.
        var timerAt: Int64?
        /// Warnings that fell due and are not delivered yet, by budget number: queued, or being
        /// delivered (on which thread, and who waits for it to finish).
        var deliveries: [UInt64: Delivery] = [:]
        /// The deliveries each thread blocked in `end` waits for, by thread: the edges of the
        /// wait-for graph `end` checks so that it never closes a cycle of waits.
        var waiting: [UInt: [UInt64]] = [:]
        /// How many entries of `deliveries` list each budget number among their ancestors, so that
        /// `end` of a budget with no delivery under it looks up one key instead of scanning them all.
        var ancestorCounts: [UInt64: Int] = [:]
        /// The hard stop ``BudgetScheduler/shutdown(grace:)`` set, if it was called.
        var shutdownAt: Int64?
        /// Tasks in ``BudgetScheduler/waitForLiveBudgets(_:)``.
        var liveWaiters = CountWaiters()
        /// Tasks waiting for an exact number of live budgets (of the scheduler or of a scope).
        var exactWaiters = ExactCountWaiters()
        /// Stop handlers of removed budgets not yet called: exact-count waiters wait for them too.
        var stopsInFlight = 0
        /// Tasks in ``BudgetScheduler/waitForShutdown()``.
        var shutdownWaiters = CountWaiters()
        /// Bodies of ``withBackgroundTask(named:allowance:warningLead:grace:maximumAllowance:scheduler:operation:)``
        /// running now, and the tasks waiting for a number of them.
        var runningJobs = 0
        var runningWaiters = CountWaiters()
        /// The last allowance and warning lead requested, in nanoseconds: a job runner asks for the
        /// same few again and again, and converting a `Duration` costs more than comparing one.
        var allowanceMemo = DurationMemo()
        var leadMemo = DurationMemo()
        /// The live scopes, by number.
        var scopes: [UInt32: ScopeState] = [:]
        var lastScope: UInt32 = 0
        /// How many budgets were requested, wrapping at 2^32: the last request's number. A record's
        /// `generation` is its budget's request number.
        var requests: UInt32 = 0

        /// The number of live budgets of a scope, or of the scheduler for scope zero.
        func liveCount(in scope: UInt32) -> Int {
            scope == 0 ? liveCount : scopes[scope]?.liveCount ?? 0
        }

        /// The earliest shutdown hard stop that applies to a budget of `scope`, if any.
        ///
        /// Inlined, as is ``slot(of:)``: called out of line on the `inout` state of a `withLock`
        /// closure, a non-mutating method gets a bitwise copy of the whole state (a 372-byte `memcpy`),
        /// here on every request and extend (and, for `slot(of:)`, every end).
        @inline(__always)
        func shutdownAt(in scope: UInt32) -> Int64? {
            guard scope != 0, let own = scopes[scope]?.shutdownAt else { return shutdownAt }
            return min(own, shutdownAt ?? .max)
        }

        /// Counts a budget of `scope` in or out.
        mutating func countLive(_ delta: Int, scope: UInt32) {
            liveCount += delta
            if scope != 0 { scopes[scope]?.liveCount += delta }
        }

        /// Takes out the exact-count waiters whose count holds now, unless stop handlers are still to
        /// run (a waiter for none must not wake before the last stop handler has returned).
        mutating func takeExactSatisfied() -> [UnsafeContinuation<Void, any Error>] {
            guard !exactWaiters.isEmpty, stopsInFlight == 0 else { return [] }
            let counts = self
            return exactWaiters.takeSatisfied { counts.liveCount(in: $0) }
        }

        /// Puts a budget's next deadline (its warning or its hard stop) on the heap, unless it is never due.
        mutating func schedule(_ slot: Int) {
            let next = min(warnAt(of: slot), records[slot].stopAt)
            if next >= BudgetScheduler.neverDue { deadlines.remove(slot) } else { deadlines.set(slot, to: next) }
        }

        @inline(__always)
        func slot(of budget: Budget) -> Int? {
            let slot = Int(budget.handle & 0xFFFF_FFFF) - 1
            guard slot >= 0 else { return liveSlot(numbered: UInt32(truncatingIfNeeded: budget.handle >> 32)) }
            guard slot < records.count, records[slot].isLive, records[slot].generation == UInt32(budget.handle >> 32) else { return nil }
            return slot
        }

        /// The slot of the live budget with a request number, for a handle made from a number alone.
        /// - Complexity: O(n) in the number of budget slots.
        @inline(never)
        func liveSlot(numbered number: UInt32) -> Int? {
            records.firstIndex { $0.isLive && $0.generation == number }
        }

        /// Whether the thread `start` waits, directly or through the threads running the deliveries it
        /// waits for, for a delivery running on `thread`: then `thread` waiting for `start` would
        /// deadlock.
        func waits(from start: UInt, for thread: UInt) -> Bool {
            var pending = [start], seen: Set<UInt> = [start]
            while let current = pending.popLast() {
                if current == thread { return true }
                for id in waiting[current] ?? [] {
                    if let next = deliveries[id]?.thread, seen.insert(next).inserted { pending.append(next) }
                }
            }
            return false
        }

        /// Records a queued delivery and counts its ancestors.
        mutating func queue(_ delivery: Delivery, for id: UInt64) {
            deliveries[id] = delivery
            for ancestor in delivery.ancestors { ancestorCounts[ancestor, default: 0] += 1 }
        }

        /// Drops a delivery (cancelled or done) and its ancestors' counts.
        mutating func removeDelivery(_ id: UInt64) -> Delivery? {
            guard let delivery = deliveries.removeValue(forKey: id) else { return nil }
            for ancestor in delivery.ancestors {
                if ancestorCounts[ancestor] == 1 { ancestorCounts[ancestor] = nil } else { ancestorCounts[ancestor]! -= 1 }
            }
            return delivery
        }

        /// Stores a new budget's extras and warning handler, unless it needs neither, and returns the
        /// record's `extras` value.
        mutating func store(_ entry: Extras, onWarning: BudgetWarningHandler?) -> UInt32 {
            guard !entry.isEmpty || onWarning != nil else { return 0 }
            if let index = freeExtras.popLast() {
                extras[Int(index)] = entry
                warningHandlers[Int(index)] = WarningSlot(handler: onWarning)
                return index + 1
            }
            extras.append(entry)
            warningHandlers.append(WarningSlot(handler: onWarning))
            precondition(extras.count < 0x3FFF_FFFF, "BudgetScheduler supports at most 2^30 - 1 budgets with extras")
            return UInt32(extras.count)
        }

        /// Changes a live budget's extras, making its entry first if it has none.
        mutating func withExtras<R>(of slot: Int, _ body: (inout Extras) -> R) -> R {
            if records[slot].extras == 0 {
                if let index = freeExtras.popLast() {
                    records[slot].extras = index + 1
                } else {
                    extras.append(Extras())
                    warningHandlers.append(WarningSlot())
                    precondition(extras.count < 0x3FFF_FFFF, "BudgetScheduler supports at most 2^30 - 1 budgets with extras")
                    records[slot].extras = UInt32(extras.count)
                }
            }
            return body(&extras[Int(records[slot].extras - 1)])
        }

        func warnAt(of slot: Int) -> Int64 {
            let index = records[slot].extras
            return index == 0 ? .max : extras[Int(index - 1)].warnAt
        }

        func ceiling(of slot: Int) -> Int64 {
            let index = records[slot].extras
            return index == 0 ? .max : extras[Int(index - 1)].ceiling
        }

        func parent(of slot: Int) -> UInt32 {
            let index = records[slot].extras
            return index == 0 ? 0 : extras[Int(index - 1)].parent
        }

        func firstChild(of slot: Int) -> UInt32 {
            let index = records[slot].extras
            return index == 0 ? 0 : extras[Int(index - 1)].firstChild
        }

        func scope(of slot: Int) -> UInt32 {
            let index = records[slot].extras
            return index == 0 ? 0 : extras[Int(index - 1)].scope
        }

        func onWarning(of slot: Int) -> BudgetWarningHandler? {
            let index = records[slot].extras
            return index == 0 ? nil : warningHandlers[Int(index - 1)].handler
        }

        /// Empties a removed budget's slot of its handlers and extras: its stop and warning handlers
        /// move (no copies) into ``released``, to be dropped after the lock, and its extras entry is
        /// left free and empty. Returns the extras it had (all zero for none). No optional or tuple
        /// holding a closure crosses the call: destroying one goes through the runtime's generic value
        /// witnesses, which a profile of begin+end measured at 8 % of the pair.
        mutating func takeHandlersAndExtras(of slot: Int) -> Extras {
            var onStop: BudgetStopHandler?
            swap(&onStop, &records[slot].onStop)
            let index = Int(records[slot].extras)
            guard index != 0 else {
                if onStop != nil { released.append(nil, onStop) }
                return Extras()
            }
            records[slot].extras = 0
            let taken = extras[index - 1]
            extras[index - 1] = Extras()
            var warning = WarningSlot()
            swap(&warning, &warningHandlers[index - 1])
            freeExtras.append(UInt32(index - 1))
            if warning.handler != nil || onStop != nil { released.append(warning.handler, onStop) }
            return taken
        }

        func budget(at slot: Int) -> Budget {
            Budget(number: records[slot].generation, slot: slot, name: records[slot].name)
        }
    }

    /// One `Duration` and its whole nanoseconds, kept for the next request.
    struct DurationMemo: Sendable {
        private var duration = Duration.zero
        private var nanoseconds: Int64 = 0

        /// `duration` in whole nanoseconds, clamped to `Int64`.
        mutating func nanoseconds(of duration: Duration) -> Int64 {
            if duration != self.duration {
                self.duration = duration
                nanoseconds = duration.nanosecondsSaturating
            }
            return nanoseconds
        }
    }

    /// A due warning on its way to its handler.
    struct Delivery: Sendable {
        /// The budget numbers of the budget's ancestors when the warning was queued, parent first:
        /// `end` of any of them cancels or waits for this delivery, even once the budget is no
        /// longer linked under it (it stopped in the batch that queued the warning).
        var ancestors: [UInt64]
        /// `nil` while queued (not yet begun: `end` cancels it); else the thread its handler runs on.
        var thread: UInt?
        /// Signals of the `end` calls on other threads waiting for the running handler to return.
        var waiters: [OneShotSignal] = []
        /// The handler, so that a thread about to run the budget's stop handler can deliver a warning
        /// another thread queued but has not begun.
        var handler: BudgetWarningHandler
        /// The budget's stop, when it stopped while the handler ran and the thread that stopped it could
        /// not wait for the handler (it is that thread, or waiting would deadlock): the thread running
        /// the handler calls it once the handler has returned.
        var deferredStops: [Stop] = []
    }

    /// A budget removed because it stopped, with its reason and its stop handler, to call after the lock.
    typealias Stop = (Budget, BudgetStopReason, BudgetStopHandler?)

    /// Handlers let go of under the lock, to drop after it. The first pair is kept inline, so that
    /// ending one budget allocates nothing; an array holds the rest (a budget's children).
    struct ReleasedHandlers: Sendable {
        /// Moves the handlers and waiters out of `released`, leaving it empty.
        static func take(from released: inout ReleasedHandlers) -> ReleasedHandlers {
            var taken = ReleasedHandlers()
            swap(&taken, &released)
            return taken
        }

        var first: (BudgetWarningHandler?, BudgetStopHandler?)?
        var more: [(BudgetWarningHandler?, BudgetStopHandler?)] = []
        /// Waiters whose count a removal satisfied, to resume after the lock.
        var resumes: [UnsafeContinuation<Void, any Error>] = []

        /// Resumes the waiters; the handlers are released when the value is dropped (after the lock).
        func resumeWaiters() {
            for waiter in resumes { waiter.resume() }
        }

        mutating func append(_ onWarning: BudgetWarningHandler?, _ onStop: BudgetStopHandler?) {
            if first == nil { first = (onWarning, onStop) } else { more.append((onWarning, onStop)) }
        }
    }
}

extension Int64 {
    /// `self + other`, clamped to the representable range.
    func addingSaturating(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }
}
