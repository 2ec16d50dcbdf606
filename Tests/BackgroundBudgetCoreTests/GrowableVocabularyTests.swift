import Testing
import BackgroundBudgetCore

/// The vocabularies that grow with the model are structs with a static member per case: each keeps
/// its names, raw values, conformances and printed form, a `switch` with a `default` matches its
/// members, and a case's values are read through the property of its name.
@Suite struct GrowableVocabularyTests {
    /// Every member has a distinct raw value that names it again, and unknown names give `nil`.
    private func expectRawVocabulary<T: RawRepresentable & CaseIterable & Hashable>(
        _ type: T.Type, count: Int, unknown: T.RawValue, sourceLocation: SourceLocation = #_sourceLocation
    ) where T.RawValue: Hashable {
        let all = Array(T.allCases)
        #expect(all.count == count, sourceLocation: sourceLocation)
        #expect(Set(all).count == count, sourceLocation: sourceLocation)
        #expect(Set(all.map(\.rawValue)).count == count, sourceLocation: sourceLocation)
        for member in all { #expect(T(rawValue: member.rawValue) == member, sourceLocation: sourceLocation) }
        #expect(T(rawValue: unknown) == nil, sourceLocation: sourceLocation)
    }

    @Test func rawValuedVocabulariesKeepTheirNamesAndRawValues() {
        expectRawVocabulary(AppCallback.self, count: 8, unknown: "applicationDidWakeUp")
        expectRawVocabulary(SceneCallback.self, count: 6, unknown: "sceneDidWakeUp")
        expectRawVocabulary(BackgroundActivity.self, count: 4, unknown: "flying")
        expectRawVocabulary(JetsamOrder.self, count: 2, unknown: "random")
        expectRawVocabulary(BudgetPolicy.Field.self, count: BudgetPolicy.Field.allCases.count, unknown: "noSuchField")
        expectRawVocabulary(ContinuedProcessingOptions.SubmissionStrategy.self, count: 2, unknown: "later")
        expectRawVocabulary(TaskSchedulerError.Code.self, count: 4, unknown: 99)
        expectRawVocabulary(JetsamBand.self, count: 4, unknown: 7)

        #expect(AppCallback(rawValue: "didEnterBackground") == .didEnterBackground)
        #expect(BackgroundActivity.audioPlayback.rawValue == "audioPlayback")
        #expect(BackgroundActivity.allCases == [.audioPlayback, .locationUpdates, .nearbyInteraction, .pushToTalk])
        #expect(TaskSchedulerError.Code(rawValue: 3) == .notPermitted)
        #expect(TaskSchedulerError.Code.immediateRunIneligible.rawValue == 4)
        #expect(JetsamBand(rawValue: 10) == .foreground)
        #expect(JetsamOrder(number: 1) == .leastRecentlyUsed && JetsamOrder(number: 2) == nil)
    }

    @Test func membersPrintAsTheEnumsDid() {
        #expect(AppCallback.didEnterBackground.description == "applicationDidEnterBackground")
        #expect(TaskSchedulerError.Code.notPermitted.description == "notPermitted")
        #expect(JetsamBand.audioAndAccessory.description == "audioAndAccessory")
        #expect(BackgroundActivity.locationUpdates.description == "locationUpdates")
        #expect(LifecycleEvent.kill(.watchdog).description == "kill(watchdog)")
        #expect(LifecycleEvent.pressHome.description == "pressHome")
        #expect(LifecycleStep.enter(.background).description == "enter(background)")
        #expect(DeviceChange.memoryCapacity(512_000_000).description == "memoryCapacity 512 MB")
        #expect(BackgroundEvent.bluetooth(.central).description == "bluetooth(central)")
        #expect(EventOutcome.dropped(.modeNotDeclared).description == "dropped(modeNotDeclared)")
        #expect(TaskRequest.Kind.processing(requiresNetworkConnectivity: true, requiresExternalPower: false).description
                == "processing")
        #expect(ContinuedProcessingActivity.Phase.queued(position: 2).description == "queued(position: 2)")
        // A vocabulary that had no description of its own prints its case as Swift prints an enum case.
        #expect(BudgetPolicy.Field.launchWatchdog.description == "launchWatchdog")
        #expect(TraceEvent.Kind.fetchStarted.description == "fetchStarted")
        #expect(TraceEvent.Kind.workDropped(count: 3).description == "workDropped(count: 3)")
    }

    @Test func aSwitchWithADefaultMatchesMembersAndCasesWithTheirValues() {
        func describe(_ kind: TraceEvent.Kind) -> String {
            switch kind {
            case .callback(.didEnterBackground): "entered the background"
            case .fetchStarted: "fetch"
            case .exit(.watchdog, code: 0x8bad_f00d): "watchdog kill"
            default: "other \(kind.tag)"
            }
        }
        #expect(describe(.callback(.didEnterBackground)) == "entered the background")
        #expect(describe(.fetchStarted) == "fetch")
        #expect(describe(.exit(.watchdog, code: 0x8bad_f00d)) == "watchdog kill")
        #expect(describe(.exit(.watchdog, code: nil)) == "other exit")
        #expect(describe(.callback(.didBecomeActive)) == "other callback")

        func phase(_ event: LifecycleEvent) -> String {
            switch event {
            case .launch: "launch"
            case .suspend(.noBackgroundWork): "idle suspension"
            default: "other"
            }
        }
        #expect(phase(.launch) == "launch")
        #expect(phase(.suspend(.noBackgroundWork)) == "idle suspension")
        #expect(phase(.pressHome) == "other")
    }

    @Test func aCasesValuesAreReadThroughThePropertyOfItsName() {
        let exit = TraceEvent.Kind.exit(.backgroundTaskExpired, code: 0x2182_bad2)
        if case let (reason, code)? = exit.exit {
            #expect(reason == .backgroundTaskExpired && code == 0x2182_bad2)
        } else {
            Issue.record("an exit kind has exit values")
        }
        #expect(exit.callback == nil)
        #expect(exit.tag == .exit)
        #expect(TraceEvent.Kind.workDropped(count: 2).workDropped == 2)
        #expect(TraceEvent.Kind.stateChange(.suspended, cause: .suspend(.noBackgroundWork)).stateChange?.cause
                == .suspend(.noBackgroundWork))
        #expect(LifecycleEvent.closeScene("scene-1").closeScene == "scene-1")
        #expect(LifecycleEvent.closeScene("scene-1").reclaimScene == nil)
        #expect(LifecycleStep.exit(.userKill).exit == .userKill)
        // A case whose value is optional reads as a double optional: `nil` for another case.
        #expect(DeviceChange.memoryCapacity(nil).memoryCapacity == .some(nil))
        #expect(DeviceChange.network(true).memoryCapacity == nil)
        #expect(BackgroundEvent.regionBoundary("home").regionBoundary == "home")
        #expect(SystemNotification.locale("fr_FR").locale == "fr_FR")
        #expect(Explanation.Hold.eventWindow(until: .seconds(30)).eventWindow == .seconds(30))
        #expect(TaskSchedulerError.Cause.pendingLimitReached(1).pendingLimitReached == 1)
    }

    @Test func membersWithDifferentValuesDifferAndHashApart() {
        let kinds: [TraceEvent.Kind] = [
            .callback(.didEnterBackground), .callback(.didBecomeActive), .fetchStarted,
            .exit(.watchdog, code: nil), .exit(.watchdog, code: 0x8bad_f00d), .workDropped(count: 1),
        ]
        #expect(Set(kinds).count == kinds.count)
        #expect(TraceEvent.Kind.callback(.didEnterBackground) == .callback(.didEnterBackground))
        #expect(LifecycleEvent.kill(.watchdog) != .terminate(.watchdog))
        #expect(JetsamBand.idle < .background && JetsamBand.foreground < .audioAndAccessory)
        #expect(JetsamBand.allCases.sorted() == [.idle, .background, .foreground, .audioAndAccessory])
    }
}
