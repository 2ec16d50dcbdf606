import Testing
import BackgroundBudget
@testable import BackgroundBudgetCore
import BudgetClock

@Suite struct TraceTests {
    private func sampleTrace() throws -> Trace {
        let clock = VirtualClock()
        let system = BackgroundSystem(clock: clock)
        let app = try system.install(AppManifest(id: "com.example.StateLab", displayName: "State Lab"))
        try system.open(app)
        clock.advance(by: .milliseconds(12_345))
        try system.pressHome()
        return system.trace
    }

    @Test func jsonLinesFollowTheDocumentedSchema() throws {
        let expected = """
        {"t":0.000,"app":"com.example.StateLab","event":"stateChange","state":"inactive","reason":"launch"}
        {"t":0.000,"app":"com.example.StateLab","event":"application:willFinishLaunchingWithOptions"}
        {"t":0.000,"app":"com.example.StateLab","event":"application:didFinishLaunchingWithOptions"}
        {"t":0.000,"app":"com.example.StateLab","event":"stateChange","state":"active","reason":"launch"}
        {"t":0.000,"app":"com.example.StateLab","event":"applicationDidBecomeActive"}
        {"t":12.345,"app":"com.example.StateLab","event":"applicationWillResignActive"}
        {"t":12.345,"app":"com.example.StateLab","event":"stateChange","state":"inactive","reason":"pressHome"}
        {"t":12.345,"app":"com.example.StateLab","event":"stateChange","state":"background","reason":"pressHome"}
        {"t":12.345,"app":"com.example.StateLab","event":"applicationDidEnterBackground"}
        {"t":12.345,"app":"com.example.StateLab","event":"stateChange","state":"suspended","reason":"noBackgroundWork"}

        """
        #expect(try sampleTrace().jsonLines() == expected)
    }

    @Test func exitsCarryTheirTerminationCode() {
        let event = TraceEvent(time: .milliseconds(30_000), app: "a", kind: .exit(.backgroundTaskExpired, code: 0x2182_bad2))
        #expect(event.jsonLine == #"{"t":30.000,"app":"a","event":"exit","reason":"backgroundTaskExpired","code":"0x2182bad2"}"#)
        #expect(formatCode(0xbad) == "0x00000bad")
    }

    @Test func jsonStringsEscapeWhatJSONRequires() {
        #expect(jsonString("a\"b\\c\nd\u{01}é") == #""a\"b\\c\nd\u0001é""#)
    }

    @Test func logLinesLookLikeNSLog() throws {
        let lines = try sampleTrace().logLines(LogLineStyle(processNames: ["com.example.StateLab": "State Lab"]))
            .split(separator: "\n")
        #expect(lines[1] == "2026-01-01 00:00:00.000 State Lab[1069:307] application:willFinishLaunchingWithOptions:")
        #expect(lines[5] == "2026-01-01 00:00:12.345 State Lab[1069:307] applicationWillResignActive:")
        #expect(lines[9] == "2026-01-01 00:00:12.345 State Lab[1069:307] (state: suspended, reason: noBackgroundWork)")
        let callbacksOnly = try sampleTrace().logLines(LogLineStyle(includesSystemEvents: false))
        #expect(callbacksOnly.split(separator: "\n").count == 5)
    }

    @Test func eachAppGetsItsOwnProcessIdentifierInOrderOfAppearance() {
        let trace = Trace(events: [
            TraceEvent(time: .zero, app: "b", kind: .callback(.didBecomeActive)),
            TraceEvent(time: .zero, app: "a", kind: .callback(.didBecomeActive)),
            TraceEvent(time: .zero, app: "b", kind: .callback(.willResignActive)),
        ])
        let pids = trace.logLines().split(separator: "\n").map { $0.split(separator: " ")[2] }
        #expect(pids == ["b[1069:307]", "a[1070:307]", "b[1069:307]"])
    }

    @Test func logDatesRollOverDaysMonthsYearsAndLeapDays() {
        let style = LogLineStyle.DateTime(year: 2011, month: 12, day: 31, hour: 23, minute: 59, second: 59, millisecond: 999)
        #expect(style.adding(nanoseconds: 1_000_000) == "2012-01-01 00:00:00.000")
        let leap = LogLineStyle.DateTime(year: 2012, month: 2, day: 28, hour: 12)
        #expect(leap.adding(nanoseconds: 86_400_000_000_000) == "2012-02-29 12:00:00.000")
        #expect(leap.adding(nanoseconds: 2 * 86_400_000_000_000) == "2012-03-01 12:00:00.000")
        #expect(leap.adding(nanoseconds: -13 * 3_600_000_000_000) == "2012-02-27 23:00:00.000")
        #expect(leap.adding(nanoseconds: 1_499_999) == "2012-02-28 12:00:00.001")
        #expect(LogLineStyle().start.description == "2026-01-01 00:00:00.000")
    }

    @Test func theSameCallsGiveTheSameTraceByteForByte() throws {
        #expect(try sampleTrace().jsonLines() == sampleTrace().jsonLines())
    }
}

@Suite struct TraceRetentionTests {
    @Test func latestKeepsAtLeastTheNewestEntriesAndCountsTheRest() {
        var trace = Trace()
        for index in 0..<1_000 {
            trace.append(TraceEvent(time: .milliseconds(Int64(index)), app: "a", kind: .callback(.didBecomeActive)), retention: .latest(100))
        }
        #expect(trace.events.count >= 100 && trace.events.count <= 201)
        #expect(trace.events.last?.time == .milliseconds(999))
        #expect(trace.discardedCount + trace.events.count == 1_000)
        #expect(zip(trace.events, trace.events.dropFirst()).allSatisfy { $0.time < $1.time })
    }

    @Test func noneRecordsNothingButCounts() throws {
        let system = try BackgroundSystem(policy: .iOS13, clock: VirtualClock(), traceRetention: .none)
        let app = try system.install(AppManifest(id: "a"))
        try system.open(app)
        #expect(system.trace.events.isEmpty)
        #expect(system.trace.discardedCount == 5)
        #expect(app.applicationState == .active)
    }

    @Test func deviceChangesAreRecordedOnceEachOnTheDeviceOrTheApp() throws {
        let clock = VirtualClock()
        let system = BackgroundSystem(clock: clock)
        let news = try system.install(AppManifest(id: "news"))
        system.setDeviceIdle(true)
        system.setDeviceIdle(true)                        // no change: not recorded
        clock.advance(by: .seconds(2))
        system.setNetworkAvailable(false)
        system.setExternalPower(true)
        system.setLowPowerMode(true)
        system.setBackgroundAppRefresh(enabled: false)
        system.setBackgroundAppRefreshRestricted(true)
        system.setBackgroundAppRefresh(enabled: false, for: news)
        system.setMemoryCapacity(512_000_000)
        system.setMemoryCapacity(nil)
        system.setSystemUnderLoad(true)
        system.setSupportsBackgroundGPU(true)
        try system.open(news)                             // opening an app ends idleness
        let changes = system.trace.events.filter { $0.eventName == "deviceChanged" }
        #expect(changes.map(\.app) == Array(repeating: .device, count: 6) + ["news"] + Array(repeating: .device, count: 5))
        #expect(changes.compactMap { if case .deviceChanged(let change) = $0.kind { change.description } else { nil } } == [
            "idle on", "network off", "externalPower on", "lowPowerMode on", "backgroundAppRefresh off",
            "backgroundAppRefreshRestricted on", "backgroundAppRefresh off", "memoryCapacity 512 MB", "memoryCapacity unlimited",
            "systemUnderLoad on", "backgroundGPU on", "idle off",
        ])
        #expect(changes[1].jsonLine == #"{"t":2.000,"app":"(device)","event":"deviceChanged","name":"network","value":"off"}"#)
        #expect(AppID.device.validationProblem != nil)
    }
}

/// A system on a real clock keeps a bounded trace unless told otherwise; on the virtual clock,
/// everything, so tests and scenarios are unchanged.
@Suite struct DefaultTraceRetentionTests {
    /// Records `count` device changes (no app, no queue, nothing waits on the clock).
    private func record(_ count: Int, on system: BackgroundSystem) {
        for index in 0..<count { system.setDeviceIdle(index % 2 == 0) }
    }

    #if canImport(Dispatch)
    @Test func aSystemOnTheRealClockKeepsOnlyTheLatestEntriesByDefault() {
        let clock = DispatchClock()
        defer { clock.shutdown() }
        let system = BackgroundSystem(clock: clock)
        record(25_000, on: system)
        let trace = system.trace
        #expect(trace.events.count >= 10_000 && trace.events.count <= 20_001)
        #expect(trace.events.count + trace.discardedCount == 25_000)
        #expect(system.traceRetention == .latest(TraceRetention.defaultLatestCount))
    }

    @Test func everyInitialiserTakesARetention() throws {
        let clock = DispatchClock()
        defer { clock.shutdown() }
        let everything = BackgroundSystem(clock: clock, traceRetention: .all)
        record(25_000, on: everything)
        #expect(everything.trace.events.count == 25_000)
        let latest = try BackgroundSystem(policy: .iOS13, clock: clock)
        #expect(latest.traceRetention == .latest(10_000))
        #expect(try BackgroundSystem(policy: .iOS13, clock: clock, traceRetention: .none).traceRetention == .none)
    }
    #endif

    @Test func aSystemOnTheVirtualClockKeepsEverything() throws {
        let system = BackgroundSystem(clock: VirtualClock())
        record(25_000, on: system)
        #expect(system.trace.events.count == 25_000)
        #expect(system.traceRetention == .all)
        #expect(try BackgroundSystem(policy: .iOS7, clock: VirtualClock()).traceRetention == .all)
        #expect(TraceRetention.automatic.resolved(for: VirtualClock()) == .all)
        #expect(TraceRetention.latest(5).resolved(for: VirtualClock()) == .latest(5))
    }
}
