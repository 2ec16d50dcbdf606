import BudgetTime
@testable import BackgroundBudgetCore
import BudgetClock
import Testing

/// The instant `seconds` after zero.
private func at(_ seconds: Int64) -> BudgetInstant {
    BudgetInstant(nanoseconds: seconds * 1_000_000_000)
}

/// One table row: a named state, what is done to it, and what must come out (a value and the state
/// after, compared by `check`).
struct FeatureCase<State: Sendable, Output: Sendable & Equatable>: Sendable, CustomTestStringConvertible {
    /// What the row checks.
    var name: String
    /// The state before.
    var state: State
    /// What is done to the state; returns the value to compare.
    var run: @Sendable (inout State) -> Output
    /// The value `run` must return.
    var expected: Output
    /// A check of the state after `run`.
    var after: @Sendable (State) -> Bool = { _ in true }

    /// The name shown for the row.
    var testDescription: String { name }

    /// Runs the row and records an issue for each expectation it misses.
    func verify() {
        var state = self.state
        let output = run(&state)
        #expect(output == expected, "\(name): returned \(output), expected \(expected)")
        #expect(after(state), "\(name): state after is wrong: \(state)")
    }
}

/// Table-driven tests of the pure per-feature rules on the sub-states of ``DeviceCore/AppRecord`` and
/// ``DeviceCore``: each row is a state and an input, and the value and state that must result.
@Suite struct FeatureStateTests {
    /// The iOS 13 policy: a 30 s allowance, a 5 s warning lead, a 900 s fetch minimum, 30 s fetches,
    /// a 600 s processing cap.
    static let policy = BudgetPolicy.iOS13

    // MARK: Finite tasks

    /// An app's allowance and the tasks its process has open, changed as the core changes them: the
    /// allowance and the numbers are the app's, the open tasks the process's.
    @dynamicMemberLookup
    struct FiniteTasks: Sendable {
        var state = FiniteTaskState()
        var tasks = FiniteTaskState.Running()

        subscript<Value>(dynamicMember keyPath: WritableKeyPath<FiniteTaskState, Value>) -> Value {
            get { state[keyPath: keyPath] }
            set { state[keyPath: keyPath] = newValue }
        }

        subscript<Value>(dynamicMember keyPath: WritableKeyPath<FiniteTaskState.Running, Value>) -> Value {
            get { tasks[keyPath: keyPath] }
            set { tasks[keyPath: keyPath] = newValue }
        }

        func remaining(of allowance: Duration, at now: BudgetInstant) -> Duration { state.remaining(of: allowance, at: now) }
        mutating func processLaunched() { state.processLaunched() }
        mutating func backgroundPeriodBegan(at now: BudgetInstant) { state.backgroundPeriodBegan(at: now) }
        mutating func returnedToForeground(at now: BudgetInstant, resetsAllowance: Bool) {
            state.returnedToForeground(at: now, resetsAllowance: resetsAllowance)
        }
        mutating func backgroundPeriodEnded(at now: BudgetInstant) { state.backgroundPeriodEnded(at: now) }

        func wantedTimers(in appState: ApplicationState, allowance: Duration, warningLead: Duration, at now: BudgetInstant) -> ArmedTimers {
            state.wantedTimers(in: appState, tasks: tasks, allowance: allowance, warningLead: warningLead, at: now)
        }

        mutating func begin(name: String?, at now: BudgetInstant) -> UInt64 {
            let number = state.takeNumber()
            tasks.begin(number, name: name, at: now)
            return number
        }

        mutating func end(_ number: UInt64) -> BackgroundTaskEndProblem? { tasks.end(number, nextNumber: state.nextNumber) }
        mutating func takeUncalledHandlers() -> [UInt64] { tasks.takeUncalledHandlers() }
        mutating func takeOverruns(allowance: Duration, at now: BudgetInstant) -> [UInt64] { tasks.takeOverruns(allowance: allowance, at: now) }
    }

    /// A finite-task state with the given allowance bookkeeping and tasks.
    static func finite(spent: Int64 = 0, since: Int64? = nil, tasks: [UInt64: OpenTask] = [:], unwarned: Int = 0,
                       overrun: Int64? = nil) -> FiniteTasks {
        var state = FiniteTasks()
        state.spentBefore = .seconds(spent)
        state.backgroundSince = since.map(at)
        state.open = tasks
        state.nextNumber = (tasks.keys.max() ?? 0) + 1
        state.unwarned = unwarned
        state.armed.overrun = overrun.map(at)
        return state
    }

    static let allowanceCases: [FeatureCase<FiniteTasks, Duration>] = [
        .init(name: "a fresh period at 10 s has 20 s left", state: finite(since: 0), run: { $0.remaining(of: .seconds(30), at: at(10)) }, expected: .seconds(20)),
        .init(name: "earlier periods count", state: finite(spent: 12, since: 0), run: { $0.remaining(of: .seconds(30), at: at(10)) }, expected: .seconds(8)),
        .init(name: "never below zero", state: finite(spent: 25, since: 0), run: { $0.remaining(of: .seconds(30), at: at(10)) }, expected: .zero),
        .init(name: "outside a period only earlier ones count", state: finite(spent: 5), run: { $0.remaining(of: .seconds(30), at: at(100)) }, expected: .seconds(25)),
        .init(name: "returning resets the allowance", state: finite(spent: 5, since: 0),
              run: { $0.returnedToForeground(at: at(10), resetsAllowance: true); return $0.spentBefore }, expected: .zero,
              after: { $0.backgroundSince == nil }),
        .init(name: "returning without reset keeps the period's time", state: finite(spent: 5, since: 0),
              run: { $0.returnedToForeground(at: at(10), resetsAllowance: false); return $0.spentBefore }, expected: .seconds(15),
              after: { $0.backgroundSince == nil }),
        .init(name: "returning outside a period still resets", state: finite(spent: 7),
              run: { $0.returnedToForeground(at: at(10), resetsAllowance: true); return $0.spentBefore }, expected: .zero),
        .init(name: "returning outside a period without reset keeps it", state: finite(spent: 7),
              run: { $0.returnedToForeground(at: at(10), resetsAllowance: false); return $0.spentBefore }, expected: .seconds(7)),
        .init(name: "suspension spends the period", state: finite(spent: 5, since: 2),
              run: { $0.backgroundPeriodEnded(at: at(10)); return $0.spentBefore }, expected: .seconds(13),
              after: { $0.backgroundSince == nil }),
        .init(name: "a new period starts unannounced and unused", state: { var s = finite(spent: 5); s.allowanceAnnounced = true; s.usedThisPeriod = true; return s }(),
              run: { $0.backgroundPeriodBegan(at: at(4)); return $0.spentBefore }, expected: .seconds(5),
              after: { $0.backgroundSince == at(4) && !$0.allowanceAnnounced && !$0.usedThisPeriod }),
        .init(name: "a launch forgets the allowance spent", state: finite(spent: 9),
              run: { $0.processLaunched(); return $0.spentBefore }, expected: .zero),
    ]

    @Test(arguments: allowanceCases) func finiteTaskAllowance(_ row: FeatureCase<FiniteTasks, Duration>) { row.verify() }

    static let oneTask: [UInt64: OpenTask] = [1: OpenTask(name: nil, begunAt: at(0))]

    static let timerCases: [FeatureCase<FiniteTasks, ArmedTimers>] = [
        .init(name: "background: expiry and warning 5 s before", state: finite(since: 0, tasks: oneTask, unwarned: 1),
              run: { $0.wantedTimers(in: .background, allowance: .seconds(30), warningLead: .seconds(5), at: at(3)) },
              expected: ArmedTimers(warning: at(25), expiry: at(30))),
        .init(name: "background: no warning once every handler is called", state: finite(since: 0, tasks: oneTask, unwarned: 0),
              run: { $0.wantedTimers(in: .background, allowance: .seconds(30), warningLead: .seconds(5), at: at(3)) },
              expected: ArmedTimers(expiry: at(30))),
        .init(name: "background: a late warning is due now", state: finite(since: 0, tasks: oneTask, unwarned: 1),
              run: { $0.wantedTimers(in: .background, allowance: .seconds(30), warningLead: .seconds(5), at: at(28)) },
              expected: ArmedTimers(warning: at(28), expiry: at(30))),
        .init(name: "background: spent time shortens the allowance", state: finite(spent: 10, since: 5, tasks: oneTask, unwarned: 1),
              run: { $0.wantedTimers(in: .background, allowance: .seconds(30), warningLead: .seconds(5), at: at(6)) },
              expected: ArmedTimers(warning: at(20), expiry: at(25))),
        .init(name: "background without tasks: nothing", state: finite(since: 0),
              run: { $0.wantedTimers(in: .background, allowance: .seconds(30), warningLead: .seconds(5), at: at(3)) },
              expected: ArmedTimers()),
        .init(name: "foreground: overrun of the oldest unreported task",
              state: finite(tasks: [1: OpenTask(name: nil, begunAt: at(2), overrunReported: true), 2: OpenTask(name: nil, begunAt: at(7))]),
              run: { $0.wantedTimers(in: .active, allowance: .seconds(30), warningLead: .seconds(5), at: at(8)) },
              expected: ArmedTimers(overrun: at(37))),
        .init(name: "foreground: an armed overrun stays", state: finite(tasks: oneTask, overrun: 50),
              run: { $0.wantedTimers(in: .inactive, allowance: .seconds(30), warningLead: .seconds(5), at: at(8)) },
              expected: ArmedTimers(overrun: at(50))),
        .init(name: "suspended: nothing", state: finite(since: 0, tasks: oneTask, unwarned: 1),
              run: { $0.wantedTimers(in: .suspended, allowance: .seconds(30), warningLead: .seconds(5), at: at(3)) },
              expected: ArmedTimers()),
    ]

    @Test(arguments: timerCases) func finiteTaskTimers(_ row: FeatureCase<FiniteTasks, ArmedTimers>) { row.verify() }

    static let twoTasks: [UInt64: OpenTask] = [
        1: OpenTask(name: "a", begunAt: at(0)), 2: OpenTask(name: "b", begunAt: at(5), handlerCalled: true),
    ]

    static let taskCases: [FeatureCase<FiniteTasks, BackgroundTaskEndProblem?>] = [
        .init(name: "ending an open task", state: finite(tasks: twoTasks, unwarned: 1), run: { $0.end(1) }, expected: nil,
              after: { $0.unwarned == 0 && $0.open.keys.sorted() == [2] }),
        .init(name: "ending a warned task leaves the count", state: finite(tasks: twoTasks, unwarned: 1), run: { $0.end(2) }, expected: nil,
              after: { $0.unwarned == 1 && $0.open.keys.sorted() == [1] }),
        .init(name: "ending twice", state: finite(tasks: twoTasks, unwarned: 1), run: { _ = $0.end(1); return $0.end(1) }, expected: .alreadyEnded),
        .init(name: "ending a number never handed out", state: finite(tasks: twoTasks, unwarned: 1), run: { $0.end(3) }, expected: .unknownTask,
              after: { $0.open.count == 2 }),
        .init(name: "beginning hands out the next number", state: finite(tasks: twoTasks, unwarned: 1),
              run: { $0.begin(name: "c", at: at(9)) == 3 ? nil : .unknownTask }, expected: nil,
              after: { $0.nextNumber == 4 && $0.unwarned == 2 && $0.open[3]?.begunAt == at(9) }),
    ]

    @Test(arguments: taskCases) func finiteTaskBeginAndEnd(_ row: FeatureCase<FiniteTasks, BackgroundTaskEndProblem?>) { row.verify() }

    static let takeCases: [FeatureCase<FiniteTasks, [UInt64]>] = [
        .init(name: "uncalled handlers, in begin order", state: finite(tasks: twoTasks.merging([3: OpenTask(name: nil, begunAt: at(6))]) { $1 }, unwarned: 2),
              run: { $0.takeUncalledHandlers() }, expected: [1, 3], after: { $0.unwarned == 0 && $0.open.values.allSatisfy(\.handlerCalled) }),
        .init(name: "overruns a whole allowance old", state: finite(tasks: twoTasks.merging([3: OpenTask(name: nil, begunAt: at(10))]) { $1 }),
              run: { $0.takeOverruns(allowance: .seconds(30), at: at(35)) }, expected: [1, 2], after: { $0.open[3]?.overrunReported == false }),
        .init(name: "reported overruns are not reported again",
              state: finite(tasks: [1: OpenTask(name: nil, begunAt: at(0), overrunReported: true), 2: OpenTask(name: nil, begunAt: at(10))]),
              run: { $0.takeOverruns(allowance: .seconds(30), at: at(40)) }, expected: [2]),
    ]

    @Test(arguments: takeCases) func finiteTaskHandlersAndOverruns(_ row: FeatureCase<FiniteTasks, [UInt64]>) { row.verify() }

    // MARK: Modes

    /// A process's modes with a window, pushes in flight and calls reported.
    static func modes(window: Int64? = nil, pushes: Int = 0, calls: Int = 0) -> ModeState.Running {
        var state = ModeState.Running()
        state.windowUntil = window.map(at)
        state.voipPushesInFlight = pushes
        state.callsReported = calls
        return state
    }

    /// An app's monitoring, kept across launches.
    static func monitoring(significant: Bool = false, regions: Set<String> = []) -> ModeState {
        var state = ModeState()
        state.monitorsSignificantChanges = significant
        state.monitoredRegions = regions
        return state
    }

    static let modeCases: [FeatureCase<ModeState.Running, Bool>] = [
        .init(name: "a first window opens", state: modes(), run: { $0.extendWindow(until: at(10)) }, expected: true, after: { $0.windowUntil == at(10) }),
        .init(name: "a window is never shortened", state: modes(window: 20), run: { $0.extendWindow(until: at(10)) }, expected: false, after: { $0.windowUntil == at(20) }),
        .init(name: "an equal window changes nothing", state: modes(window: 10), run: { $0.extendWindow(until: at(10)) }, expected: false),
        .init(name: "a longer window extends", state: modes(window: 10), run: { $0.extendWindow(until: at(20)) }, expected: true, after: { $0.windowUntil == at(20) }),
        .init(name: "no window: idle", state: modes(), run: { $0.closeElapsedWindow(at: at(5)) }, expected: true),
        .init(name: "an open window holds the app", state: modes(window: 10), run: { $0.closeElapsedWindow(at: at(5)) }, expected: false, after: { $0.windowUntil == at(10) }),
        .init(name: "a window ends at its instant", state: modes(window: 10), run: { $0.closeElapsedWindow(at: at(10)) }, expected: true, after: { $0.windowUntil == nil }),
        .init(name: "a call reported for a push", state: modes(pushes: 1), run: { $0.reportCall() }, expected: true, after: { $0.callsReported == 1 }),
        .init(name: "one report per push", state: modes(pushes: 1, calls: 1), run: { $0.reportCall() }, expected: false, after: { $0.callsReported == 1 }),
        .init(name: "a report without a push counts for nothing", state: modes(), run: { $0.reportCall() }, expected: false, after: { $0.callsReported == 0 }),
        .init(name: "a handled push uses its report", state: modes(pushes: 1, calls: 1), run: { $0.voipPushHandled() }, expected: true,
              after: { $0.voipPushesInFlight == 0 && $0.callsReported == 0 }),
        .init(name: "a handled push without a report kills", state: modes(pushes: 2), run: { $0.voipPushHandled() }, expected: false,
              after: { $0.voipPushesInFlight == 1 }),
    ]

    static let monitoringCases: [FeatureCase<ModeState, Bool>] = [
        .init(name: "significant changes monitored", state: monitoring(significant: true), run: { $0.monitors(.significantLocationChange) }, expected: true),
        .init(name: "significant changes not monitored", state: monitoring(regions: ["home"]), run: { $0.monitors(.significantLocationChange) }, expected: false),
        .init(name: "a monitored region", state: monitoring(regions: ["home"]), run: { $0.monitors(.regionBoundary("home")) }, expected: true),
        .init(name: "another region", state: monitoring(significant: true, regions: ["home"]), run: { $0.monitors(.regionBoundary("work")) }, expected: false),
        .init(name: "monitoring off for a region", state: monitoring(regions: ["home", "work"]),
              run: { $0.setMonitoring(significantChanges: nil, region: "home", monitoring: false); return $0.monitorsLocation }, expected: true,
              after: { $0.monitoredRegions == ["work"] }),
    ]

    @Test(arguments: monitoringCases) func monitoringRules(_ row: FeatureCase<ModeState, Bool>) { row.verify() }

    /// An app whose process runs with a window, a push in flight and a call reported, and which
    /// monitors significant changes.
    static func recordWithModes() -> DeviceCore.AppRecord {
        var record = DeviceCore.AppRecord(manifest: AppManifest(id: "com.example.modes"))
        record.modes = monitoring(significant: true)
        var process = DeviceCore.RunningProcess(state: .background)
        process.modes = modes(window: 10, pushes: 1, calls: 1)
        record.process = .running(process)
        return record
    }

    static let processEndCases: [FeatureCase<DeviceCore.AppRecord, Bool>] = [
        .init(name: "the process's end keeps monitoring", state: recordWithModes(),
              run: { _ = $0.processEnded(at: at(20)); return $0.modes.monitorsLocation }, expected: true,
              after: { $0.running?.modes.windowUntil == nil && ($0.running?.modes.voipPushesInFlight ?? 0) == 0 && ($0.running?.modes.callsReported ?? 0) == 0 }),
    ]

    @Test(arguments: processEndCases) func processEndKeepsMonitoring(_ row: FeatureCase<DeviceCore.AppRecord, Bool>) { row.verify() }

    @Test(arguments: modeCases) func modeRules(_ row: FeatureCase<ModeState.Running, Bool>) { row.verify() }

    // MARK: Notifications

    /// A notification state with recent push times.
    static func notifications(pushes: [Int64] = []) -> NotificationState {
        var state = NotificationState()
        state.silentPushTimes = pushes.map(at)
        return state
    }

    /// A process's notifications, with these queued.
    static func notifications(_ queued: [SystemNotification]) -> NotificationState.Running {
        var state = NotificationState.Running()
        state.queued = queued
        return state
    }

    static let coalesceCases: [FeatureCase<NotificationState.Running, [SystemNotification]>] = [
        .init(name: "a kind replaces its queued one in place", state: notifications([.orientation("portrait"), .locale("en")]),
              run: { $0.coalesce(.orientation("landscape")); return $0.queued }, expected: [.orientation("landscape"), .locale("en")]),
        .init(name: "a new kind joins the back", state: notifications([.orientation("portrait")]),
              run: { $0.coalesce(.userDefaults); return $0.queued }, expected: [.orientation("portrait"), .userDefaults]),
        .init(name: "taking empties the queue", state: notifications([.userDefaults, .screenMode]),
              run: { $0.takeQueued() }, expected: [.userDefaults, .screenMode], after: { $0.queued.isEmpty }),
    ]

    @Test(arguments: coalesceCases) func notificationCoalescing(_ row: FeatureCase<NotificationState.Running, [SystemNotification]>) { row.verify() }

    static let silentPushCases: [FeatureCase<NotificationState, Bool>] = [
        .init(name: "the first push", state: notifications(), run: { $0.admitSilentPush(at: at(0), window: .seconds(3600), limit: 3) }, expected: true,
              after: { $0.silentPushTimes == [at(0)] }),
        .init(name: "the fourth push within the hour is throttled", state: notifications(pushes: [0, 10, 20]),
              run: { $0.admitSilentPush(at: at(3599), window: .seconds(3600), limit: 3) }, expected: false,
              after: { $0.silentPushTimes == [at(0), at(10), at(20)] }),
        .init(name: "a push an hour old no longer counts", state: notifications(pushes: [0, 10, 20]),
              run: { $0.admitSilentPush(at: at(3600), window: .seconds(3600), limit: 3) }, expected: true,
              after: { $0.silentPushTimes == [at(10), at(20), at(3600)] }),
    ]

    @Test(arguments: silentPushCases) func silentPushThrottling(_ row: FeatureCase<NotificationState, Bool>) { row.verify() }

    // MARK: Fetch

    /// A fetch state whose model has no jitter, so that gaps are exact.
    static func fetch(_ interval: BackgroundFetchInterval = .minimum, lastEnd: Int64? = nil) -> FetchState {
        var factors = BudgetPolicy.FetchModelFactors()
        factors.jitter = 0
        var state = FetchState(model: FetchModel(seed: 1, factors: factors))
        state.interval = interval
        state.lastEnd = lastEnd.map(at)
        return state
    }

    /// An app's fetch state and the fetch its process runs (started at 0 s), changed as the core
    /// changes them: the running fetch is the process's.
    struct FetchRun: Sendable, CustomStringConvertible {
        var state: FetchState
        var running: RunningFetch?
        var lastEnd: BudgetInstant? { state.lastEnd }
        var nextAt: BudgetInstant? { state.nextAt }
        var model: FetchModel { state.model }
        var description: String { "\(state), running \(String(describing: running))" }

        mutating func complete(_ number: UInt64, result: BackgroundFetchResult, runtime: Duration, at now: BudgetInstant) -> Bool {
            guard state.complete(number, of: running, result: result, runtime: runtime, at: now) else { return false }
            running = nil
            return true
        }

        mutating func processEnded(at now: BudgetInstant) -> Bool {
            defer { running = nil }
            return state.processEnded(during: running, at: now)
        }

        mutating func start(_ number: UInt64, at now: BudgetInstant) {
            state.start(at: now)
            running = RunningFetch(number: number, started: now)
        }
    }

    static func fetch(lastEnd: Int64? = nil, running: UInt64?) -> FetchRun {
        FetchRun(state: fetch(lastEnd: lastEnd), running: running.map { RunningFetch(number: $0, started: at(0)) })
    }

    static let fetchPlanCases: [FeatureCase<FetchState, BudgetInstant>] = [
        .init(name: "minimum: the system's 900 s after the last fetch", state: fetch(lastEnd: 0),
              run: { $0.planNext(at: at(0), systemMinimum: .seconds(900)) }, expected: at(900), after: { $0.nextAt == at(900) }),
        .init(name: "a longer interval is kept", state: fetch(.atLeast(.seconds(3600)), lastEnd: 100),
              run: { $0.planNext(at: at(0), systemMinimum: .seconds(900)) }, expected: at(3700)),
        .init(name: "never fetched: from now", state: fetch(),
              run: { $0.planNext(at: at(50), systemMinimum: .seconds(900)) }, expected: at(950)),
        .init(name: "never before now", state: fetch(lastEnd: 0),
              run: { $0.planNext(at: at(2000), systemMinimum: .seconds(900)) }, expected: at(2000)),
    ]

    @Test(arguments: fetchPlanCases) func fetchPlanning(_ row: FeatureCase<FetchState, BudgetInstant>) { row.verify() }

    static let fetchRunCases: [FeatureCase<FetchRun, Bool>] = [
        .init(name: "completing the running fetch", state: fetch(running: 7),
              run: { $0.complete(7, result: .newData, runtime: .seconds(30), at: at(10)) }, expected: true,
              after: { $0.running == nil && $0.lastEnd == at(10) }),
        .init(name: "completing another fetch is ignored", state: fetch(lastEnd: 3, running: 7),
              run: { $0.complete(8, result: .newData, runtime: .seconds(30), at: at(10)) }, expected: false,
              after: { $0.running?.number == 7 && $0.lastEnd == at(3) }),
        .init(name: "a slow fetch stretches the gaps", state: fetch(running: 7),
              run: { $0.complete(7, result: .noData, runtime: .seconds(30), at: at(29)) }, expected: true,
              after: { $0.model.factor > fetch().model.factor }),
        .init(name: "a fetch cut short uses its opportunity", state: fetch(lastEnd: 3, running: 7),
              run: { $0.processEnded(at: at(20)) }, expected: true, after: { $0.running == nil && $0.lastEnd == at(20) }),
        .init(name: "an exit without a fetch keeps the plan", state: fetch(lastEnd: 3, running: nil),
              run: { $0.processEnded(at: at(20)) }, expected: false, after: { $0.lastEnd == at(3) }),
        .init(name: "starting uses the opportunity", state: { var s = fetch(running: nil); s.state.nextAt = at(900); return s }(),
              run: { $0.start(9, at: at(900)); return $0.running?.number == 9 }, expected: true, after: { $0.nextAt == nil }),
    ]

    @Test(arguments: fetchRunCases) func fetchRunning(_ row: FeatureCase<FetchRun, Bool>) { row.verify() }

    // MARK: Task requests

    static let processing = TaskRequest.Kind.processing(requiresNetworkConnectivity: false, requiresExternalPower: false)
    static let continued = TaskRequest.Kind.continuedProcessing(ContinuedProcessingOptions(title: "Export", subtitle: ""))

    /// A pending request submitted at 100 s.
    static func pending(_ id: String, _ kind: TaskRequest.Kind, earliest: Int64? = nil) -> PendingTaskRequest {
        PendingTaskRequest(request: TaskRequest(identifier: id, kind: kind, earliestBeginDate: earliest.map(at)), submittedAt: at(100))
    }

    static let notBeforeCases: [FeatureCase<PendingTaskRequest, BudgetInstant>] = [
        .init(name: "refresh: the fetch minimum after submission", state: pending("r", .appRefresh), run: { $0.notBefore(policy) }, expected: at(1000)),
        .init(name: "refresh: a later earliest date", state: pending("r", .appRefresh, earliest: 5000), run: { $0.notBefore(policy) }, expected: at(5000)),
        .init(name: "refresh: an earlier earliest date", state: pending("r", .appRefresh, earliest: 200), run: { $0.notBefore(policy) }, expected: at(1000)),
        .init(name: "processing: at once", state: pending("p", processing), run: { $0.notBefore(policy) }, expected: at(100)),
        .init(name: "processing: its earliest date", state: pending("p", processing, earliest: 5000), run: { $0.notBefore(policy) }, expected: at(5000)),
        .init(name: "continued: the earliest date is ignored", state: pending("c", continued, earliest: 5000), run: { $0.notBefore(policy) }, expected: at(100)),
    ]

    @Test(arguments: notBeforeCases) func pendingRequestDates(_ row: FeatureCase<PendingTaskRequest, BudgetInstant>) { row.verify() }

    static let deadlineCases: [FeatureCase<RunningScheduledTask, BudgetInstant?>] = [
        .init(name: "refresh: warned 5 s before its 30 s", state: RunningScheduledTask(identifier: "r", kind: .appRefresh, started: at(0)),
              run: { $0.deadline(policy) }, expected: at(25)),
        .init(name: "refresh: killed at the end once warned", state: RunningScheduledTask(identifier: "r", kind: .appRefresh, started: at(0), expiredAt: at(25)),
              run: { $0.deadline(policy) }, expected: at(30)),
        .init(name: "processing: the runtime cap", state: RunningScheduledTask(identifier: "p", kind: processing, started: at(0)),
              run: { $0.deadline(policy) }, expected: at(600)),
        .init(name: "processing: failed 5 s after expiring", state: RunningScheduledTask(identifier: "p", kind: processing, started: at(0), expiredAt: at(40)),
              run: { $0.deadline(policy) }, expected: at(45)),
        .init(name: "continued: no time limit", state: RunningScheduledTask(identifier: "c", kind: continued, started: at(0)),
              run: { $0.deadline(policy) }, expected: nil),
        .init(name: "continued: failed 5 s after expiring", state: RunningScheduledTask(identifier: "c", kind: continued, started: at(0), expiredAt: at(40)),
              run: { $0.deadline(policy) }, expected: at(45)),
    ]

    @Test(arguments: deadlineCases) func runningTaskDeadlines(_ row: FeatureCase<RunningScheduledTask, BudgetInstant?>) { row.verify() }

    static let deadlineActionCases: [FeatureCase<RunningScheduledTask, RunningScheduledTask.DeadlineAction?>] = [
        .init(name: "refresh: its expiration handler first", state: RunningScheduledTask(identifier: "r", kind: .appRefresh, started: at(0)),
              run: { $0.actionAtDeadline }, expected: .expire(.runtimeEnding)),
        .init(name: "refresh: then the app is killed", state: RunningScheduledTask(identifier: "r", kind: .appRefresh, started: at(0), expiredAt: at(25)),
              run: { $0.actionAtDeadline }, expected: .killApp),
        .init(name: "processing: expires at its cap", state: RunningScheduledTask(identifier: "p", kind: processing, started: at(0)),
              run: { $0.actionAtDeadline }, expected: .expire(.runtimeCap)),
        .init(name: "processing: then marked failed", state: RunningScheduledTask(identifier: "p", kind: processing, started: at(0), expiredAt: at(40)),
              run: { $0.actionAtDeadline }, expected: .finishUnfinished),
        .init(name: "continued: nothing while it runs", state: RunningScheduledTask(identifier: "c", kind: continued, started: at(0)),
              run: { $0.actionAtDeadline }, expected: nil),
        .init(name: "continued: marked failed once expired", state: RunningScheduledTask(identifier: "c", kind: continued, started: at(0), expiredAt: at(40)),
              run: { $0.actionAtDeadline }, expected: .finishUnfinished),
    ]

    @Test(arguments: deadlineActionCases) func runningTaskDeadlineActions(_ row: FeatureCase<RunningScheduledTask, RunningScheduledTask.DeadlineAction?>) { row.verify() }

    /// Device conditions: idle, on power, online unless told otherwise.
    static func conditions(idle: Bool = true, power: Bool = true, network: Bool = true) -> DeviceConditions {
        var conditions = DeviceConditions()
        (conditions.deviceIdle, conditions.externalPower, conditions.networkAvailable) = (idle, power, network)
        return conditions
    }

    static let needsBoth = TaskRequest.Kind.processing(requiresNetworkConnectivity: true, requiresExternalPower: true)

    static let conditionCases: [FeatureCase<RunningScheduledTask, TaskExpiryReason?>] = [
        .init(name: "conditions hold", state: RunningScheduledTask(identifier: "p", kind: needsBoth, started: at(0)),
              run: { $0.lostConditions(conditions()) }, expected: nil),
        .init(name: "the device in use comes first", state: RunningScheduledTask(identifier: "p", kind: needsBoth, started: at(0)),
              run: { $0.lostConditions(conditions(idle: false, power: false, network: false)) }, expected: .deviceInUse),
        .init(name: "power before network", state: RunningScheduledTask(identifier: "p", kind: needsBoth, started: at(0)),
              run: { $0.lostConditions(conditions(power: false, network: false)) }, expected: .externalPowerLost),
        .init(name: "the network lost", state: RunningScheduledTask(identifier: "p", kind: needsBoth, started: at(0)),
              run: { $0.lostConditions(conditions(network: false)) }, expected: .networkLost),
        .init(name: "a condition not required", state: RunningScheduledTask(identifier: "p", kind: processing, started: at(0)),
              run: { $0.lostConditions(conditions(power: false, network: false)) }, expected: nil),
        .init(name: "an expired task does not expire again", state: RunningScheduledTask(identifier: "p", kind: needsBoth, started: at(0), expiredAt: at(5)),
              run: { $0.lostConditions(conditions(idle: false)) }, expected: nil),
        .init(name: "a refresh does not depend on them", state: RunningScheduledTask(identifier: "r", kind: .appRefresh, started: at(0)),
              run: { $0.lostConditions(conditions(idle: false)) }, expected: nil),
    ]

    @Test(arguments: conditionCases) func processingTaskConditions(_ row: FeatureCase<RunningScheduledTask, TaskExpiryReason?>) { row.verify() }

    /// Task-request state with pending refresh "a" (not before 1000 s), processing "b" (5000 s) and "c" (100 s).
    static let requests: TaskRequestState = {
        var state = TaskRequestState()
        state.pending = [pending("a", .appRefresh), pending("b", processing, earliest: 5000), pending("c", processing)]
        return state
    }()

    static let requestCases: [FeatureCase<TaskRequestState, [String]>] = [
        .init(name: "resubmitting moves a request to the back", state: requests,
              run: { $0.submit(TaskRequest(identifier: "b", kind: processing), at: at(200)); return $0.pending.map(\.request.identifier) },
              expected: ["a", "c", "b"], after: { $0.pending.last?.submittedAt == at(200) }),
        .init(name: "cancelling one identifier", state: requests, run: { $0.cancel("c").map(\.request.identifier) }, expected: ["c"],
              after: { $0.pending.map(\.request.identifier) == ["a", "b"] }),
        .init(name: "cancelling all", state: requests, run: { $0.cancel(nil).map(\.request.identifier) }, expected: ["a", "b", "c"],
              after: { $0.pending.isEmpty }),
    ]

    @Test(arguments: requestCases) func taskRequestQueue(_ row: FeatureCase<TaskRequestState, [String]>) { row.verify() }

    static let pendingLimitCases: [FeatureCase<TaskRequestState, Int>] = [
        .init(name: "a processing request replacing b counts only c", state: requests,
              run: { $0.pendingCount(alongside: TaskRequest(identifier: "b", kind: processing)) }, expected: 1),
        .init(name: "a new processing request counts b and c", state: requests,
              run: { $0.pendingCount(alongside: TaskRequest(identifier: "d", kind: processing)) }, expected: 2),
        .init(name: "a new refresh request counts a", state: requests,
              run: { $0.pendingCount(alongside: TaskRequest(identifier: "e", kind: .appRefresh)) }, expected: 1),
        .init(name: "a refresh request replacing a counts none", state: requests,
              run: { $0.pendingCount(alongside: TaskRequest(identifier: "a", kind: .appRefresh)) }, expected: 0),
    ]

    @Test(arguments: pendingLimitCases) func pendingRequestLimits(_ row: FeatureCase<TaskRequestState, Int>) { row.verify() }

    static let nextDateCases: [FeatureCase<TaskRequestState, BudgetInstant?>] = [
        .init(name: "the earliest date after now", state: requests, run: { $0.nextDate(after: at(0), policy) }, expected: at(100)),
        .init(name: "dates passed are skipped", state: requests, run: { $0.nextDate(after: at(1000), policy) }, expected: at(5000)),
        .init(name: "none left", state: requests, run: { $0.nextDate(after: at(6000), policy) }, expected: nil),
        .init(name: "moving the timer", state: requests, run: { $0.moveTimer(to: at(7)) ? $0.timerAt : nil }, expected: at(7)),
    ]

    @Test(arguments: nextDateCases) func taskRequestTimers(_ row: FeatureCase<TaskRequestState, BudgetInstant?>) { row.verify() }

    static let runningDeadlineCases: [FeatureCase<TaskRequestState.Running, BudgetInstant?>] = [
        .init(name: "the earliest running deadline",
              state: { var s = TaskRequestState.Running(); s.running = [1: RunningScheduledTask(identifier: "p", kind: processing, started: at(0)),
                                                                     2: RunningScheduledTask(identifier: "r", kind: .appRefresh, started: at(10))]; return s }(),
              run: { $0.nextDeadline(policy) }, expected: at(35)),
    ]

    @Test(arguments: runningDeadlineCases) func runningTaskTimers(_ row: FeatureCase<TaskRequestState.Running, BudgetInstant?>) { row.verify() }

    static let photos = AppManifest(id: "com.example.photos", permittedTaskIdentifiers: ["com.example.photos.export.*", "com.example.photos.refresh"])
    static let registered: TaskRequestState.Running = {
        var state = TaskRequestState.Running()
        state.registered = ["com.example.photos.export.*", "com.example.photos.refresh"]
        return state
    }()

    static let handlerCases: [FeatureCase<TaskRequestState.Running, String?>] = [
        .init(name: "the identifier itself", state: registered, run: { $0.handlerKey(for: "com.example.photos.refresh", manifest: photos) },
              expected: "com.example.photos.refresh"),
        .init(name: "the wildcard a continued identifier matches", state: registered,
              run: { $0.handlerKey(for: "com.example.photos.export.1", manifest: photos) }, expected: "com.example.photos.export.*"),
        .init(name: "a wildcard whose handler is not registered",
              state: { var s = TaskRequestState.Running(); s.registered = ["com.example.photos.refresh"]; return s }(),
              run: { $0.handlerKey(for: "com.example.photos.export.1", manifest: photos) }, expected: nil),
        .init(name: "nothing registered for it", state: registered, run: { $0.handlerKey(for: "com.example.photos.other", manifest: photos) }, expected: nil),
        .init(name: "registering twice", state: registered, run: { $0.register("com.example.photos.refresh") ? "registered" : nil }, expected: nil),
    ]

    /// A photos app whose running process registered its handlers.
    static func recordWithRegistrations() -> DeviceCore.AppRecord {
        var record = DeviceCore.AppRecord(manifest: photos)
        var process = DeviceCore.RunningProcess(state: .background)
        process.taskRequests = registered
        record.process = .running(process)
        return record
    }

    static let registrationEndCases: [FeatureCase<DeviceCore.AppRecord, String?>] = [
        .init(name: "the process's end forgets registrations", state: recordWithRegistrations(),
              run: { _ = $0.processEnded(at: at(20)); return $0.running?.taskRequests.handlerKey(for: "com.example.photos.refresh", manifest: photos) },
              expected: nil),
    ]

    @Test(arguments: registrationEndCases) func processEndForgetsRegistrations(_ row: FeatureCase<DeviceCore.AppRecord, String?>) { row.verify() }

    /// Task-request state running processing task 1 ("p") and continued tasks 2 and 3 ("c").
    static let runningTasks: TaskRequestState.Running = {
        var state = TaskRequestState.Running()
        state.running = [1: RunningScheduledTask(identifier: "p", kind: processing, started: at(0)),
                         3: RunningScheduledTask(identifier: "c", kind: continued, started: at(2)),
                         2: RunningScheduledTask(identifier: "c", kind: continued, started: at(1))]
        return state
    }()

    static let runningCases: [FeatureCase<TaskRequestState.Running, String?>] = [
        .init(name: "progress of a running task", state: runningTasks, run: { $0.updateProgress(1, completed: 3, total: 10) }, expected: "p",
              after: { $0.running[1]?.completed == 3 && $0.running[1]?.total == 10 }),
        .init(name: "progress of a task that does not run", state: runningTasks, run: { $0.updateProgress(9, completed: 3, total: 10) }, expected: nil,
              after: { $0.running[9] == nil }),
        .init(name: "continued tasks with an identifier, in start order", state: runningTasks,
              run: { $0.continuedTasks("c").map(String.init).joined(separator: ",") }, expected: "2,3"),
        .init(name: "a processing task is not a continued one", state: runningTasks,
              run: { $0.continuedTasks("p").map(String.init).joined(separator: ",") }, expected: ""),
    ]

    @Test(arguments: runningCases) func runningTaskBookkeeping(_ row: FeatureCase<TaskRequestState.Running, String?>) { row.verify() }

    static let fractionCases: [FeatureCase<RunningScheduledTask, Double>] = [
        .init(name: "no total known", state: RunningScheduledTask(identifier: "c", kind: continued, started: at(0)), run: { $0.fractionCompleted }, expected: 0),
        .init(name: "part done", state: { var t = RunningScheduledTask(identifier: "c", kind: continued, started: at(0)); (t.completed, t.total) = (3, 4); return t }(),
              run: { $0.fractionCompleted }, expected: 0.75),
        .init(name: "never above one", state: { var t = RunningScheduledTask(identifier: "c", kind: continued, started: at(0)); (t.completed, t.total) = (12, 4); return t }(),
              run: { $0.fractionCompleted }, expected: 1),
    ]

    @Test(arguments: fractionCases) func continuedTaskProgress(_ row: FeatureCase<RunningScheduledTask, Double>) { row.verify() }

    @Test(arguments: handlerCases) func launchHandlers(_ row: FeatureCase<TaskRequestState.Running, String?>) { row.verify() }

    // MARK: Continued processing

    /// A device-wide continued-processing state.
    static func continuedState(queue: [(AppID, String)] = [], running: [(AppID, UInt64)] = [], underLoad: Bool = false) -> ContinuedProcessingState {
        var state = ContinuedProcessingState()
        state.queue = queue.map { QueuedContinuedRequest(app: $0.0, pending: pending($0.1, continued)) }
        state.running = running.map { (app: $0.0, number: $0.1) }
        state.systemUnderLoad = underLoad
        return state
    }

    /// The queue as `app|identifier` strings.
    static func names(_ queue: [QueuedContinuedRequest]) -> [String] {
        queue.map { "\($0.app)|\($0.pending.request.identifier)" }
    }

    static let continuedCases: [FeatureCase<ContinuedProcessingState, [String]>] = [
        .init(name: "removing all of an app's requests", state: continuedState(queue: [("a", "x"), ("b", "x"), ("a", "y")]),
              run: { names($0.removeQueued(of: "a", nil)) }, expected: ["a|x", "a|y"], after: { names($0.queue) == ["b|x"] }),
        .init(name: "removing one identifier", state: continuedState(queue: [("a", "x"), ("b", "x"), ("a", "y")]),
              run: { names($0.removeQueued(of: "a", "y")) }, expected: ["a|y"], after: { names($0.queue) == ["a|x", "b|x"] }),
        .init(name: "re-queuing goes to the back", state: continuedState(queue: [("a", "x"), ("b", "x")]),
              run: { $0.enqueue(QueuedContinuedRequest(app: "a", pending: pending("x", continued))); return names($0.queue) }, expected: ["b|x", "a|x"]),
        .init(name: "room under the limit", state: continuedState(running: [("a", 1), ("b", 2), ("c", 3)]),
              run: { $0.canStart(limit: 4) ? ["yes"] : [] }, expected: ["yes"]),
        .init(name: "no room at the limit", state: continuedState(running: [("a", 1), ("b", 2), ("c", 3), ("d", 4)]),
              run: { $0.canStart(limit: 4) ? ["yes"] : [] }, expected: []),
        .init(name: "none while under load", state: continuedState(underLoad: true), run: { $0.canStart(limit: 4) ? ["yes"] : [] }, expected: []),
        .init(name: "forgetting one task", state: continuedState(running: [("a", 1), ("b", 2), ("a", 3)]),
              run: { $0.forget("a", 3); return $0.running.map { "\($0.app)#\($0.number)" } }, expected: ["a#1", "b#2"]),
        .init(name: "forgetting an app's tasks", state: continuedState(running: [("a", 1), ("b", 2), ("a", 3)]),
              run: { $0.forgetAll(of: "a"); return $0.running.map { "\($0.app)#\($0.number)" } }, expected: ["b#2"]),
    ]

    @Test(arguments: continuedCases) func continuedProcessingQueue(_ row: FeatureCase<ContinuedProcessingState, [String]>) { row.verify() }

    // MARK: Memory

    static let footprintCases: [FeatureCase<MemoryState, Int>] = [
        .init(name: "growing", state: MemoryState(footprint: 100), run: { $0.setFootprint(250) }, expected: 150, after: { $0.footprint == 250 }),
        .init(name: "a negative footprint is zero", state: MemoryState(footprint: 100), run: { $0.setFootprint(-5) }, expected: -100, after: { $0.footprint == 0 }),
        .init(name: "a huge footprint is clamped", state: MemoryState(), run: { $0.setFootprint(1 << 50) }, expected: 1 << 40,
              after: { $0.footprint == DeviceCore.maximumFootprint }),
        .init(name: "purged first: the larger app", state: MemoryState(footprint: 200, lastUsed: at(10)),
              run: { $0.purgeRank(.largestFootprint) < MemoryState(footprint: 100, lastUsed: at(0)).purgeRank(.largestFootprint) ? 1 : 0 }, expected: 1),
        .init(name: "purged first among equals: the least recently used", state: MemoryState(footprint: 100, lastUsed: at(0)),
              run: { $0.purgeRank(.largestFootprint) < MemoryState(footprint: 100, lastUsed: at(10)).purgeRank(.largestFootprint) ? 1 : 0 }, expected: 1),
        .init(name: "not purged first: the more recently used", state: MemoryState(footprint: 100, lastUsed: at(10)),
              run: { $0.purgeRank(.largestFootprint) < MemoryState(footprint: 100, lastUsed: at(0)).purgeRank(.largestFootprint) ? 1 : 0 }, expected: 0),
        .init(name: "least recently used order: the older app before the larger one", state: MemoryState(footprint: 100, lastUsed: at(0)),
              run: { $0.purgeRank(.leastRecentlyUsed) < MemoryState(footprint: 200, lastUsed: at(10)).purgeRank(.leastRecentlyUsed) ? 1 : 0 }, expected: 1),
        .init(name: "least recently used order: the larger app first among equals", state: MemoryState(footprint: 200, lastUsed: at(5)),
              run: { $0.purgeRank(.leastRecentlyUsed) < MemoryState(footprint: 100, lastUsed: at(5)).purgeRank(.leastRecentlyUsed) ? 1 : 0 }, expected: 1),
        .init(name: "least recently used order: not the more recent, larger app", state: MemoryState(footprint: 200, lastUsed: at(10)),
              run: { $0.purgeRank(.leastRecentlyUsed) < MemoryState(footprint: 100, lastUsed: at(0)).purgeRank(.leastRecentlyUsed) ? 1 : 0 }, expected: 0),
    ]

    @Test(arguments: footprintCases) func appMemory(_ row: FeatureCase<MemoryState, Int>) { row.verify() }

    static let warningCases: [FeatureCase<MemoryState.Running, Int>] = [
        .init(name: "one warning at a time", state: MemoryState.Running(warningInFlight: true), run: { $0.warningSent() ? 1 : 0 }, expected: 0),
        .init(name: "settling a warning", state: MemoryState.Running(warningInFlight: true), run: { $0.warningSettled() ? 1 : 0 }, expected: 1,
              after: { !$0.warningInFlight }),
    ]

    @Test(arguments: warningCases) func processMemoryWarning(_ row: FeatureCase<MemoryState.Running, Int>) { row.verify() }

    static let pressureCases: [FeatureCase<MemoryPressureState, Bool>] = [
        .init(name: "a negative capacity is zero", state: MemoryPressureState(), run: { $0.setCapacity(-5) }, expected: true, after: { $0.capacity == 0 }),
        .init(name: "the same capacity is no change", state: MemoryPressureState(capacity: 100), run: { $0.setCapacity(100) }, expected: false),
        .init(name: "no limit: never over", state: MemoryPressureState(inUse: 10), run: { $0.isOverCapacity }, expected: false),
        .init(name: "over capacity", state: MemoryPressureState(capacity: 5, inUse: 10), run: { $0.isOverCapacity }, expected: true),
        .init(name: "exactly at capacity is not over", state: MemoryPressureState(capacity: 10, inUse: 10), run: { $0.isOverCapacity }, expected: false),
        .init(name: "not the last warning", state: MemoryPressureState(pendingWarnings: 2), run: { $0.warningSettled() }, expected: false,
              after: { $0.pendingWarnings == 1 }),
        .init(name: "the last warning", state: MemoryPressureState(pendingWarnings: 1), run: { $0.warningSettled() }, expected: true),
        .init(name: "an episode lasts while warnings are handled", state: MemoryPressureState(pendingWarnings: 1, warnedThisEpisode: true),
              run: { $0.endEpisodeIfSettled(); return $0.warnedThisEpisode }, expected: true),
        .init(name: "an episode ends once they are", state: MemoryPressureState(warnedThisEpisode: true),
              run: { $0.endEpisodeIfSettled(); return $0.warnedThisEpisode }, expected: false),
        .init(name: "warnings once per episode", state: MemoryPressureState(warnedThisEpisode: true), run: { $0.beginWarnings() }, expected: false),
    ]

    @Test(arguments: pressureCases) func memoryPressure(_ row: FeatureCase<MemoryPressureState, Bool>) { row.verify() }
}
