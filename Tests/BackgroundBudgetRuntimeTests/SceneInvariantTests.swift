import Testing
import BackgroundBudget
import BackgroundBudgetCore
import BudgetClock

/// Scene-based apps under random sequences of user and system events, and woken by system events:
/// the app's state is always the one its scenes give [S4], the app sees what the system decided, and a
/// scene-based app never hears the app delegate's foreground or background callbacks [S10].
@Suite struct SceneInvariantTests {
    @Test func theAppStateFollowsTheScenesOverRandomSequences() throws {
        var random = SplitMix64(seed: 0x5CE_0E5)
        let clock = VirtualClock()
        let system = BackgroundSystem(clock: clock)
        let recorder = SceneRecorder(clock: clock)
        let notes = try recorder.install(AppManifest(id: "notes", backgroundModes: [.remoteNotification]), multipleScenes: true, in: system)
        let other = try system.install(AppManifest(id: "other"))
        for step in 0..<2_000 {
            let scenes = system.scenes(of: notes).map(\.id)
            let scene = scenes.isEmpty ? SceneID("scene-1") : scenes[Int(random.next(below: UInt64(scenes.count)))]
            switch random.next(below: 11) {
            case 0, 1: try? system.open(notes)
            case 2: try? system.pressHome()
            case 3: _ = try? system.openScene(of: notes)
            case 4: try? system.closeScene(scene, of: notes)
            case 5: try? system.reclaimScene(scene, of: notes)
            case 6: try? system.killFromAppSwitcher(notes)
            case 7: try? system.purge(notes)
            case 8: try? system.open(other)
            case 9: _ = system.deliver(.silentPush, to: notes)
            default: try? system.beginInterruption()
            }
            clock.advance(by: .seconds(Int64(random.next(below: 40))))
            let state = system.state(of: notes)
            let decided = system.scenes(of: notes)
            #expect(notes.applicationState == state, "step \(step)")
            #expect(notes.connectedScenes.map(\.id) == decided.map(\.id), "step \(step)")
            #expect(notes.connectedScenes.map(\.activationState) == decided.map(\.state), "step \(step)")
            switch state {
            case .notRunning: #expect(decided.isEmpty, "step \(step)")
            case .active: #expect(decided.contains { $0.state == .foregroundActive }, "step \(step)")
            case .inactive:
                #expect(decided.contains { $0.state == .foregroundInactive } && !decided.contains { $0.state == .foregroundActive }, "step \(step)")
            case .background, .suspended: #expect(!decided.contains { $0.state.isForeground }, "step \(step)")
            }
        }
        let heard = recorder.log.withLock { $0 }
        #expect(!heard.contains { $0.contains(" application") && !$0.contains("applicationWillTerminate") }, "app-delegate foreground callbacks")
        #expect(heard.contains { $0.contains("sceneDidDisconnect") })
        #expect(heard.contains { $0.contains("willConnect(scene-3)") })
    }

    @Test func aSilentPushWakesASuspendedSceneAppWithoutAnyLifecycleCallbackAndItsSessionOutlivesTheKill() throws {
        let clock = VirtualClock()
        let system = BackgroundSystem(clock: clock)
        let recorder = SceneRecorder(clock: clock)
        let notes = try recorder.install(AppManifest(id: "notes", backgroundModes: [.remoteNotification]), in: system)
        try system.open(notes)
        try system.pressHome()
        clock.advance(to: .seconds(10))
        #expect(system.deliver(.silentPush, to: notes) == .delivered)
        #expect(notes.applicationState == .background)
        #expect(recorder.log.withLock { $0.count } == 7)   // nothing since Home
        clock.advance(to: .seconds(45))
        // The push's completion handler was never called: terminated as any app is, its scene going
        // with the process, its session kept.
        #expect(system.trace.events(of: .exit).map(\.time) == [.seconds(40)])
        #expect(system.scenes(of: notes).isEmpty)
        try system.open(notes)
        #expect(recorder.log.withLock { $0.suffix(3).first } == "t=45.000s willConnect(scene-1) background")
    }
}
