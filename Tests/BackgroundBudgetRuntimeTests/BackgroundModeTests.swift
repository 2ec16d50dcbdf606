import Testing
import TestSupport
import BackgroundBudget
import BackgroundBudgetCore
import BudgetClock
import BackgroundBudgetTestKit

extension ScriptedDelegate {
    /// A delegate that records events and, for VoIP pushes, reports a call if told to.
    static func eventRecorder(reportsCalls: Bool = true) -> ScriptedDelegate {
        let delegate = ScriptedDelegate()
        delegate.onEvent { app, event in
            if event == .voipPush, reportsCalls { app.reportNewIncomingCall() }
        }
        return delegate
    }
}

/// Registered background modes on the virtual clock.
@Suite struct BackgroundModeTests {
    let clock = VirtualClock()
    let system: BackgroundSystem

    init() {
        system = BackgroundSystem(clock: clock)
    }

    private func suspension(of app: Application) -> TraceEvent? {
        system.trace.events.last { $0.app == app.id && $0.state == .suspended }
    }

    @Test func audioKeepsTheAppRunningWhilePlayingAndPauseSuspendsIt() throws {
        let player = try system.install(AppManifest(id: "player", backgroundModes: [.audio]))
        try system.open(player)
        try player.startPlayingAudio()
        try system.pressHome()
        clock.advance(by: .seconds(600))
        #expect(player.applicationState == .background)
        #expect(system.explain(player).holds == [.activity(.audioPlayback)])
        player.stopPlayingAudio()
        #expect(player.applicationState == .suspended)
        #expect(suspension(of: player) == TraceEvent(time: .seconds(600), app: "player", kind: .stateChange(.suspended, cause: .suspend(.activityStopped))))
        #expect(system.explain(player).description == "player is suspended: suspended at t=600.000s (activityStopped).")
    }

    @Test func pausingAudioWhileATaskIsOpenWaitsForTheTask() throws {
        let player = try system.install(AppManifest(id: "player", backgroundModes: [.audio]))
        try system.open(player)
        try player.startPlayingAudio()
        let task = player.beginBackgroundTask(withName: "save")
        try system.pressHome()
        clock.advance(by: .seconds(10))
        player.stopPlayingAudio()
        #expect(player.applicationState == .background)
        clock.advance(by: .seconds(2))
        player.endBackgroundTask(task)
        #expect(suspension(of: player)?.time == .seconds(12))
    }

    @Test func anActivityWithoutItsModeIsDeniedAndTheAppSuspendsAsUsual() throws {
        let app = try system.install(AppManifest(id: "undeclared"))
        try system.open(app)
        #expect(throws: ActivityDenial.modeNotDeclared) { try app.startPlayingAudio() }
        #expect(throws: ActivityDenial.modeNotDeclared) { try app.startUpdatingLocation() }
        #expect(system.trace.events.contains { $0.kind == .activityDenied(.audioPlayback, .modeNotDeclared) })
        try system.pressHome()
        #expect(app.applicationState == .suspended)
        #expect(throws: ActivityDenial.notRunning) { try app.startPlayingAudio() }
    }

    @Test func standardLocationUpdatesKeepTheAppRunningUntilStopped() throws {
        let tracker = try system.install(AppManifest(id: "tracker", backgroundModes: [.location]))
        try system.open(tracker)
        try tracker.startUpdatingLocation()
        try system.pressHome()
        clock.advance(by: .seconds(3_600))
        #expect(tracker.applicationState == .background)
        tracker.stopUpdatingLocation()
        #expect(suspension(of: tracker)?.time == .seconds(3_600))
    }

    @Test func aSignificantChangeRelaunchesATerminatedAppIntoTheBackgroundForAWindow() throws {
        let delegate = ScriptedDelegate.eventRecorder()
        let tracker = try system.install(AppManifest(id: "tracker", backgroundModes: [.location]), delegate: delegate)
        try system.open(tracker)
        tracker.startMonitoringSignificantLocationChanges()
        try system.pressHome()
        try system.purge(tracker)
        clock.advance(by: .seconds(100))
        #expect(system.deliver(.significantLocationChange, to: tracker) == .delivered)
        let relaunch = Trace(events: system.trace.events.filter { $0.time == .seconds(100) })
        expectTrace(relaunch, app: nil, [
            .state(.background), .callback(.willFinishLaunching), .callback(.didFinishLaunching),
            .callback(.didEnterBackground), .any(.eventWindowStarted), .any(.eventDelivered),
        ], comparing: .everyEntry)
        #expect(system.trace.events.first { $0.time == .seconds(100) }?.reason == "location")
        #expect(delegate.records(ofKind: .event).map(\.state) == [.background])
        #expect(tracker.applicationState == .background)
        clock.advance(by: .seconds(10))
        #expect(suspension(of: tracker) == TraceEvent(time: .seconds(110), app: "tracker", kind: .stateChange(.suspended, cause: .suspend(.eventWindowEnded))))
    }

    @Test func locationEventsNeedMonitoringAndSurviveAUserKillUnlessThePolicySaysOtherwise() throws {
        let tracker = try system.install(AppManifest(id: "tracker", backgroundModes: [.location]))
        try system.open(tracker)
        try system.pressHome()
        try system.killFromAppSwitcher(tracker)
        #expect(system.deliver(.significantLocationChange, to: tracker) == .dropped(.notMonitoring))
        #expect(system.deliver(.regionBoundary("home"), to: tracker) == .dropped(.notMonitoring))
        try system.open(tracker)
        tracker.startMonitoring(region: "home")
        try system.pressHome()
        try system.killFromAppSwitcher(tracker)
        #expect(system.explain(tracker).relaunchBlockers == [])
        #expect(system.deliver(.regionBoundary("home"), to: tracker) == .delivered)

        var policy = BudgetPolicy.iOS13
        policy.relaunchesLocationAppsAfterUserKill = false
        let strict = try BackgroundSystem(policy: policy, clock: clock)
        let other = try strict.install(AppManifest(id: "tracker", backgroundModes: [.location]))
        try strict.open(other)
        other.startMonitoringSignificantLocationChanges()
        try strict.pressHome()
        try strict.killFromAppSwitcher(other)
        #expect(strict.explain(other).relaunchBlockers == [.killedByUser])
        #expect(strict.deliver(.significantLocationChange, to: other) == .dropped(.killedByUser))
    }

    @Test func silentPushesWakeForThirtySecondsAndAreThrottled() throws {
        let news = try system.install(AppManifest(id: "news", backgroundModes: [.remoteNotification]))
        try system.open(news)
        try system.pressHome()
        for _ in 0..<3 {
            #expect(system.deliver(.silentPush, to: news) == .delivered)
            #expect(news.applicationState == .background)
            clock.advance(by: .seconds(30))
            // Not completed within the window: terminated, as a fetch not completed is [S63][S64].
            #expect(news.applicationState == .notRunning)
        }
        #expect(system.deliver(.silentPush, to: news) == .dropped(.throttled))
        clock.advance(by: .seconds(3_600))
        #expect(system.deliver(.silentPush, to: news) == .delivered)
    }

    /// A silent push delivered to a suspended app at `t` and never completed: the app runs in the
    /// background until `t + 30 s` exactly, and is terminated then with `0x2182bad4`.
    @Test func aSilentPushNotCompletedWithinItsWindowTerminatesTheAppAtItsEnd() throws {
        let news = try system.install(AppManifest(id: "news", backgroundModes: [.remoteNotification]))
        try system.open(news)
        try system.pressHome()
        clock.advance(by: .seconds(10))
        let pushed = clock.now
        #expect(system.deliver(.silentPush, to: news) == .delivered)
        clock.advance(by: .seconds(30) - .nanoseconds(1))
        #expect(news.applicationState == .background)
        clock.advance(by: .nanoseconds(1))
        #expect(news.applicationState == .notRunning)
        let exit = system.trace.events.last { $0.app == "news" && $0.eventName == "exit" }
        #expect(exit == TraceEvent(time: pushed + .seconds(30), app: "news", kind: .exit(.backgroundFetchNotCompleted, code: 0x2182_bad4)))
    }

    /// A silent push completed 10 s in: the app is suspended at that instant and never terminated.
    @Test func aSilentPushCompletedWithinItsWindowSuspendsTheAppThen() throws {
        let news = try system.install(AppManifest(id: "news", backgroundModes: [.remoteNotification]))
        try system.open(news)
        try system.pressHome()
        clock.advance(by: .seconds(10))
        let pushed = clock.now
        #expect(system.deliver(.silentPush, to: news) == .delivered)
        clock.advance(by: .seconds(10))
        news.completeRemoteNotification(.newData)
        #expect(news.applicationState == .suspended)
        clock.advance(by: .seconds(60))
        #expect(news.applicationState == .suspended)
        #expect(!system.trace.events.contains { $0.app == "news" && $0.eventName == "exit" })
        let suspended = system.trace.events.last { $0.app == "news" && $0.eventName == "stateChange" }
        #expect(suspended?.time == pushed + .seconds(10))
    }

    /// Other events keep the window-then-suspend rule: a Bluetooth event's window ends in suspension.
    @Test func aBluetoothEventWindowStillEndsInSuspension() throws {
        let band = try system.install(AppManifest(id: "band", backgroundModes: [.bluetoothCentral]))
        try system.open(band)
        try system.pressHome()
        #expect(system.deliver(.bluetooth(.central), to: band) == .delivered)
        clock.advance(by: .seconds(30))
        #expect(band.applicationState == .suspended)
    }

    @Test func silentPushesNeedTheModeAndStopAfterAUserKillUntilTheUserOpensTheApp() throws {
        let plain = try system.install(AppManifest(id: "plain"))
        #expect(system.deliver(.silentPush, to: plain) == .dropped(.modeNotDeclared))
        let news = try system.install(AppManifest(id: "news", backgroundModes: [.remoteNotification]))
        try system.open(news)
        try system.pressHome()
        try system.killFromAppSwitcher(news)
        #expect(system.explain(news).relaunchBlockers == [.killedByUser])
        #expect(system.deliver(.silentPush, to: news) == .dropped(.killedByUser))
        try system.open(news)
        try system.pressHome()
        #expect(system.deliver(.silentPush, to: news) == .delivered)
    }

    @Test func aVoIPPushMustBeReportedAsACall() throws {
        let phone = try system.install(AppManifest(id: "phone", backgroundModes: [.voip]), delegate: ScriptedDelegate.eventRecorder(reportsCalls: true))
        #expect(system.deliver(.voipPush, to: phone) == .delivered)
        #expect(system.trace.events.contains { $0.kind == .voipCallReported })
        #expect(phone.applicationState == .background)

        let rude = try system.install(AppManifest(id: "rude", backgroundModes: [.voip]), delegate: ScriptedDelegate.eventRecorder(reportsCalls: false))
        #expect(system.deliver(.voipPush, to: rude) == .delivered)
        #expect(rude.applicationState == .notRunning)
        #expect(system.trace.events.contains { $0.app == "rude" && $0.kind == .exit(.voipPushNotReported, code: 0xbaad_ca11) })
    }

    @Test func theKeepAliveHandlerWakesTheAppEveryIntervalForTenSeconds() throws {
        let calls = TestLog<BudgetInstant>()
        let phone = try system.install(AppManifest(id: "phone", backgroundModes: [.voip]))
        try system.open(phone)
        let clock = self.clock
        #expect(!phone.setKeepAliveTimeout(.seconds(599)) {})
        #expect(phone.setKeepAliveTimeout(.seconds(600)) { calls.append(clock.now) })
        try system.pressHome()
        #expect(phone.applicationState == .suspended)
        clock.advance(by: .seconds(600))
        #expect(calls.entries == [.seconds(600)])
        #expect(phone.applicationState == .background)
        clock.advance(by: .seconds(10))
        #expect(suspension(of: phone)?.time == .seconds(610))
        clock.advance(by: .seconds(590))
        #expect(calls.entries == [.seconds(600), .seconds(1_200)])
        let plain = try system.install(AppManifest(id: "plain"))
        try system.open(plain)
        #expect(!plain.setKeepAliveTimeout(.seconds(600)) {})
    }

    @Test func aKeepAliveHandlerRunningPastItsTenSecondsIsSuspendedAtExactlyTenSeconds() throws {
        let returned = TestLog<BudgetInstant>()
        let phone = try system.install(AppManifest(id: "phone", backgroundModes: [.voip]))
        try system.open(phone)
        let clock = self.clock
        let handler: @Sendable () -> Void = { [weak phone] in
            phone?.simulateWork(for: .seconds(12))
            returned.append(clock.now)
        }
        #expect(phone.setKeepAliveTimeout(.seconds(600), handler: handler))
        try system.pressHome()
        clock.advance(by: .seconds(600))
        #expect(system.trace.instants(of: .keepAliveHandlerCalled, for: phone.id) == [.seconds(600)])
        // The handler is still running at 610 s: the window is enforced all the same [S33].
        #expect(suspension(of: phone) == TraceEvent(time: .seconds(610), app: "phone",
                                                    kind: .stateChange(.suspended, cause: .suspend(.keepAliveWindowEnded))))
        #expect(returned.entries == [.seconds(612)])
        #expect(phone.applicationState == .suspended)
        #expect(system.explain(phone).lastSuspension?.time == .seconds(610))
        // The next run is woken and stopped the same way.
        clock.advance(by: .seconds(600))
        #expect(system.trace.instants(of: .keepAliveHandlerCalled, for: phone.id) == [.seconds(600), .seconds(1_200)])
        #expect(suspension(of: phone)?.time == .seconds(1_210))
        #expect(returned.entries == [.seconds(612), .seconds(1_212)])
    }

    @Test func aKeepAliveHandlerThatReturnsInTimeLeavesTheAppUntilTheWindowEnds() throws {
        let phone = try system.install(AppManifest(id: "phone", backgroundModes: [.voip]))
        try system.open(phone)
        let handler: @Sendable () -> Void = { [weak phone] in phone?.simulateWork(for: .seconds(3)) }
        #expect(phone.setKeepAliveTimeout(.seconds(600), handler: handler))
        try system.pressHome()
        clock.advance(by: .seconds(600))
        clock.advance(by: .seconds(10))
        #expect(suspension(of: phone) == TraceEvent(time: .seconds(610), app: "phone",
                                                    kind: .stateChange(.suspended, cause: .suspend(.eventWindowEnded))))
    }

    @Test func aKeepAliveHandlerOverrunDoesNotSuspendAnAppHeldByABackgroundTask() throws {
        let phone = try system.install(AppManifest(id: "phone", backgroundModes: [.voip]))
        try system.open(phone)
        let handler: @Sendable () -> Void = { [weak phone] in
            guard let phone else { return }
            let task = phone.beginBackgroundTask(withName: "register")
            phone.simulateWork(for: .seconds(12))
            phone.endBackgroundTask(task)
        }
        #expect(phone.setKeepAliveTimeout(.seconds(600), handler: handler))
        try system.pressHome()
        clock.advance(by: .seconds(600))
        // The task holds the app past the window; it suspends when the task ends, at 612 s.
        #expect(suspension(of: phone)?.time == .seconds(612))
        #expect(phone.applicationState == .suspended)
    }

    @Test func bluetoothWakesForAWindowWithItsModeAndWaitsWithoutIt() throws {
        let delegate = ScriptedDelegate.eventRecorder()
        let band = try system.install(AppManifest(id: "band", backgroundModes: [.bluetoothCentral]), delegate: delegate)
        try system.open(band)
        try system.pressHome()
        #expect(system.deliver(.bluetooth(.central), to: band) == .delivered)
        clock.advance(by: .seconds(10))
        #expect(suspension(of: band)?.time == .seconds(10))

        let quiet = ScriptedDelegate.eventRecorder()
        let scale = try system.install(AppManifest(id: "scale"), delegate: quiet)
        try system.open(scale)
        try system.pressHome()
        #expect(system.deliver(.bluetooth(.peripheral), to: scale) == .queued)
        #expect(system.deliver(.accessory, to: scale) == .queued)
        #expect(quiet.events.isEmpty)
        #expect(scale.applicationState == .suspended)
        clock.advance(by: .seconds(60))
        try system.open(scale)
        #expect(quiet.events == [.bluetooth(.peripheral), .accessory])
        // Delivered after the return to the foreground, to an active app.
        #expect(quiet.records(ofKind: .event).map(\.state) == [.active, .active])
        try system.pressHome()
        try system.purge(scale)
        #expect(system.deliver(.accessory, to: scale) == .dropped(.modeNotDeclared))
    }

    /// Connect, disconnect, connect while suspended: the app gets one accessory event on resume [S37].
    @Test func accessoryEventsQueuedWhileSuspendedAreCoalesced() throws {
        let quiet = ScriptedDelegate.eventRecorder()
        let scale = try system.install(AppManifest(id: "scale"), delegate: quiet)
        try system.open(scale)
        try system.pressHome()
        for _ in 0..<3 {
            #expect(system.deliver(.accessory, to: scale) == .queued)
            clock.advance(by: .seconds(1))
        }
        try system.open(scale)
        #expect(quiet.events == [.accessory])
        #expect(system.trace.events.filter { $0.kind == .eventDelivered(.accessory) }.map(\.time) == [.seconds(3)])
    }

    @Test func eventsForAForegroundAppAreDeliveredWithoutAWindow() throws {
        let delegate = ScriptedDelegate.eventRecorder()
        let news = try system.install(AppManifest(id: "news", backgroundModes: [.remoteNotification, .newsstandContent]), delegate: delegate)
        try system.open(news)
        #expect(system.deliver(.silentPush, to: news) == .delivered)
        #expect(delegate.records(ofKind: .event).map(\.state) == [.active])
        #expect(!system.trace.contains(any: .eventWindowStarted))
        try system.pressHome()
        try system.purge(news)
        #expect(system.deliver(.newsstandDownload, to: news) == .delivered)
        #expect(system.trace.events.contains { $0.kind == .stateChange(.background, cause: .launchInBackground(.newsstandContent)) })
    }

    @Test func exitsOnSuspendAppsAreNeverWokenInTheBackground() throws {
        let old = try system.install(AppManifest(id: "old", exitsOnSuspend: true, backgroundModes: [.remoteNotification]))
        #expect(system.deliver(.silentPush, to: old) == .dropped(.exitsOnSuspend))
        #expect(system.explain(old).relaunchBlockers == [.exitsOnSuspend])
        try system.open(old)
        #expect(throws: ActivityDenial.exitsOnSuspend) { try old.startPlayingAudio() }
    }

    @Test func explainSaysWhatKeepsAnAppRunning() throws {
        let player = try system.install(AppManifest(id: "player", backgroundModes: [.audio]))
        #expect(system.explain(player).relaunchBlockers == [])
        let plain = try system.install(AppManifest(id: "plain"))
        #expect(system.explain(plain).description
            == "plain is notRunning; not relaunched in the background because it declares no background mode and monitors no location.")
        try system.open(player)
        #expect(system.explain(player).holds == [.foreground])
        try player.startPlayingAudio()
        player.beginBackgroundTask()
        try system.pressHome()
        #expect(system.explain(player).description
            == "player is background: kept running by 1 background task (allowance ends at t=30.000s), audioPlayback.")
    }
}
