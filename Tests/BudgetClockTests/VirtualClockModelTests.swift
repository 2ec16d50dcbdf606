import BudgetLock
import BudgetTime
import Testing
import BudgetClock
import TestSupport
import TestSupport

/// What a work item does when it runs, derived from its id alone so the clock under test and the
/// reference model agree without sharing state.
private enum Behaviour: Equatable {
    case nothing
    case scheduleChild(afterNanoseconds: Int64)
    case cancel(id: Int)
    case advance(byNanoseconds: Int64)

    static func of(_ id: Int) -> Behaviour {
        var random = SplitMix64(seed: UInt64(id) &* 0x9E37_79B9 &+ 17)
        switch random.next(below: 100) {
        case 0..<70: return .nothing
        case 70..<85: return .scheduleChild(afterNanoseconds: random.next(in: 0...12) * 250_000_000)
        case 85..<95: return .cancel(id: id - 1 - Int(random.next(below: 20)))
        default: return .advance(byNanoseconds: random.next(in: 0...8) * 250_000_000)
        }
    }
}

/// The reference: pending work in a plain list, the earliest `(deadline, order)` found by a scan.
private struct Model {
    var now: Int64 = 0
    var pending: [(deadline: Int64, order: Int, id: Int)] = []
    var nextOrder = 0
    var nextID = 0
    var log: [Int] = []

    mutating func schedule(at deadline: Int64) {
        pending.append((Swift.max(deadline, now), nextOrder, nextID))
        nextOrder += 1
        nextID += 1
    }

    mutating func cancel(id: Int) -> Bool {
        guard let index = pending.firstIndex(where: { $0.id == id }) else { return false }
        pending.remove(at: index)
        return true
    }

    /// Index of the earliest pending entry due at or before `limit`.
    func earliest(dueBy limit: Int64) -> Int? {
        var best: Int?
        for (index, entry) in pending.enumerated() where entry.deadline <= limit {
            if best.map({ (entry.deadline, entry.order) < (pending[$0].deadline, pending[$0].order) }) ?? true {
                best = index
            }
        }
        return best
    }

    mutating func run(_ id: Int) {
        log.append(id)
        switch Behaviour.of(id) {
        case .nothing: break
        case .scheduleChild(let delay): schedule(at: now + delay)
        case .cancel(let target): _ = cancel(id: target)
        case .advance(let delta): advance(to: now + delta)
        }
    }

    @discardableResult
    mutating func advance(to target: Int64) -> Int {
        var ran = 0
        while let index = earliest(dueBy: Swift.max(target, now)) {
            let entry = pending.remove(at: index)
            now = Swift.max(now, entry.deadline)
            ran += 1
            run(entry.id)
        }
        now = Swift.max(now, target)
        return ran
    }

    mutating func runUntilIdle() -> Int {
        var ran = 0
        while let index = earliest(dueBy: .max) {
            let entry = pending.remove(at: index)
            now = Swift.max(now, entry.deadline)
            ran += 1
            run(entry.id)
        }
        return ran
    }
}

/// The clock under test, with work that logs its id and then acts out its behaviour.
private final class Harness: Sendable {
    let clock = VirtualClock()
    private let state = LockedValue<(log: [Int], handles: [ScheduledWork], nextID: Int)>(([], [], 0))

    var log: [Int] { state.withLock { $0.log } }

    func handle(_ id: Int) -> ScheduledWork? {
        state.withLock { $0.handles.indices.contains(id) ? $0.handles[id] : nil }
    }

    func schedule(at deadline: BudgetInstant) {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        let handle = clock.schedule(at: deadline) { [self] in run(id) }
        state.withLock { $0.handles.append(handle) }
    }

    private func run(_ id: Int) {
        state.withLock { $0.log.append(id) }
        switch Behaviour.of(id) {
        case .nothing: break
        case .scheduleChild(let delay): schedule(at: clock.now + .nanoseconds(delay))
        case .cancel(let target): _ = handle(target).map(clock.cancel)
        case .advance(let delta): clock.advance(by: .nanoseconds(delta))
        }
    }
}

@Suite struct VirtualClockModelTests {
    /// 10,000 (2,000 in a quick run) seeded schedule, cancel and advance operations, with work that schedules, cancels and
    /// advances in turn, compared after every operation with a simple list model: the exact run
    /// order, `now`, the pending count and the next deadline.
    @Test(arguments: [11, 12, 13] as [UInt64])
    func randomOperationsMatchAReferenceModel(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let harness = Harness()
        let clock = harness.clock
        var model = Model()
        var checkedLog = 0
        let quarterSecond: Int64 = 250_000_000
        let steps = LongRun.cases(10_000, quick: 2_000)
        for step in 0..<steps {
            let operation = random.next(below: 100)
            switch operation {
            case 0..<45:
                // Some deadlines lie in the past, many coincide.
                let deadline = model.now + random.next(in: -8...80) * quarterSecond
                harness.schedule(at: BudgetInstant(nanoseconds: deadline))
                model.schedule(at: deadline)
            case 45..<60 where model.nextID > 0:
                let id = Int(random.next(below: UInt64(model.nextID)))
                let cancelled = harness.handle(id).map(clock.cancel) ?? false
                #expect(cancelled == model.cancel(id: id), "step \(step): cancel \(id)")
            case 60..<90:
                let delta = random.next(in: 0...12) * quarterSecond
                let ran = clock.advance(by: .nanoseconds(delta))
                #expect(ran == model.advance(to: model.now + delta), "step \(step): advance by \(delta)")
            case 90..<97:
                let target = model.now - random.next(in: 0...8) * quarterSecond
                let ran = clock.advance(to: BudgetInstant(nanoseconds: target))
                #expect(ran == model.advance(to: target), "step \(step): advance to past \(target)")
            default:
                #expect(clock.runUntilIdle() == model.runUntilIdle(), "step \(step): run until idle")
            }
            let log = harness.log
            guard log.count == model.log.count, log[checkedLog...] == model.log[checkedLog...] else {
                Issue.record("step \(step): run order \(log[checkedLog...]) != model \(model.log[checkedLog...])")
                return
            }
            checkedLog = log.count
            #expect(clock.now.nanoseconds == model.now, "step \(step)")
            #expect(clock.pendingCount == model.pending.count, "step \(step)")
            #expect(clock.nextDeadline?.nanoseconds == model.pending.map(\.deadline).min(), "step \(step)")
        }
        #expect(model.log.count > steps / 5, "the run exercised a real amount of work")
        #expect(clock.runUntilIdle() == model.runUntilIdle())
        #expect(harness.log == model.log)
        #expect(clock.pendingCount == 0)
    }
}
