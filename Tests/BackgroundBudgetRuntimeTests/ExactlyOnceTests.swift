#if canImport(Dispatch)
import Dispatch
#endif
import Testing
import TestSupport
import BackgroundBudget
import BackgroundBudgetCore
import BudgetClock

/// Every finite task ends exactly once — ended by its owner, or expired (handler once) and then ended
/// or killed — and no callback reaches a suspended or terminated app.
@Suite struct ExactlyOnceTests {
    @Test func randomSequencesEndEveryTaskExactlyOnce() throws {
        var random = SplitMix64(seed: 0x5EED_0004)
        for sequence in 0..<LongRun.cases(10_000, quick: 500) {
            try runSequence(&random, sequence: sequence)
        }
    }

    private func runSequence(_ random: inout SplitMix64, sequence: Int) throws {
        let clock = VirtualClock()
        let system = BackgroundSystem(clock: clock)
        let handlerRuns = TestLog<(BackgroundTaskIdentifier, ApplicationState)>()
        let callbackStates = TestLog<ApplicationState>()
        let ids = LockedValue<[BackgroundTaskIdentifier]>([])
        let app = try system.install(AppManifest(id: "app"))
        app.addObserver { _ in callbackStates.append(app.applicationState) }
        try system.open(app)

        for _ in 0..<Int.random(in: 4...16, using: &random) {
            switch Int.random(in: 0..<6, using: &random) {
            case 0, 1:
                let slot = LockedValue(BackgroundTaskIdentifier.invalid)
                let endInHandler = Bool.random(using: &random)
                let id = app.beginBackgroundTask(withName: "t") {
                    let id = slot.withLock { $0 }
                    handlerRuns.append((id, app.applicationState))
                    if endInHandler { app.endBackgroundTask(id) }
                }
                slot.withLock { $0 = id }
                if id != .invalid { ids.withLock { $0.append(id) } }
            case 2:
                let known = ids.withLock { $0 }
                let id = known.isEmpty || Int.random(in: 0..<5, using: &random) == 0
                    ? BackgroundTaskIdentifier(rawValue: UInt64.random(in: 0...50, using: &random))
                    : known[Int.random(in: 0..<known.count, using: &random)]
                app.endBackgroundTask(id)
            case 3:
                clock.advance(by: .milliseconds(Int64.random(in: 0...40_000, using: &random)))
            case 4:
                try? system.pressHome()
            default:
                try? system.open(app)
            }
        }
        try? system.pressHome()
        clock.advance(by: .seconds(1_000))

        // Replay the trace: each granted task is resolved once, by an end or by the app's exit.
        var open: Set<BackgroundTaskIdentifier> = []
        var resolved: [BackgroundTaskIdentifier: Int] = [:]
        var handled: [BackgroundTaskIdentifier: Int] = [:]
        for event in system.trace.events {
            switch event.kind {
            case .backgroundTaskBegan(let id, _):
                #expect(open.insert(id).inserted, "sequence \(sequence): \(id) began twice")
            case .backgroundTaskEnded(let id):
                #expect(open.remove(id) != nil, "sequence \(sequence): \(id) ended while not open")
                resolved[id, default: 0] += 1
            case .expirationHandlerCalled(let id):
                #expect(open.contains(id), "sequence \(sequence): handler for \(id) after it ended")
                handled[id, default: 0] += 1
            case .exit:
                for id in open { resolved[id, default: 0] += 1 }
                open.removeAll()
            default:
                break
            }
        }
        #expect(open.isEmpty, "sequence \(sequence): tasks left open: \(open)")
        for id in ids.withLock({ $0 }) {
            #expect(resolved[id] == 1, "sequence \(sequence): \(id) resolved \(resolved[id] ?? 0) times")
            #expect((handled[id] ?? 0) <= 1, "sequence \(sequence): \(id) handler called \(handled[id] ?? 0) times")
        }
        // Handlers ran as often as the trace says, each on a running background app.
        let runs = handlerRuns.entries
        #expect(runs.count <= handled.values.reduce(0, +))
        #expect(runs.allSatisfy { $0.1 == .background }, "sequence \(sequence): handler reached \(runs.map(\.1))")
        #expect(callbackStates.entries.allSatisfy { $0 != .suspended && $0 != .notRunning })
        #expect(clock.pendingCount == 0, "sequence \(sequence): timers left armed")
    }

    #if canImport(Dispatch)
    @Test func beginningAndEndingFromEightThreadsLosesNothing() throws {
        let clock = VirtualClock()
        let system = BackgroundSystem(clock: clock)
        let app = try system.install(AppManifest(id: "runner"))
        try system.open(app)
        let granted = LockedValue<[BackgroundTaskIdentifier]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            var mine: [BackgroundTaskIdentifier] = []
            for round in 0..<500 {
                let id = app.beginBackgroundTask(withName: "job")
                mine.append(id)
                if round % 2 == 1 { app.endBackgroundTask(mine.removeFirst()) }
            }
            for id in mine { app.endBackgroundTask(id) }
            granted.withLock { $0 += mine }
        }
        let events = system.trace.events
        let began = events.compactMap { if case .backgroundTaskBegan(let id, _) = $0.kind { id } else { nil } }
        let ended = events.compactMap { if case .backgroundTaskEnded(let id) = $0.kind { id } else { nil } }
        #expect(began.count == 4_000)
        #expect(Set(began).count == 4_000)
        #expect(Set(ended) == Set(began))
        #expect(ended.count == 4_000)
        #expect(!events.contains { $0.eventName == "endBackgroundTaskIgnored" })
        try system.pressHome()
        #expect(app.applicationState == .suspended)
    }
    #endif
}
