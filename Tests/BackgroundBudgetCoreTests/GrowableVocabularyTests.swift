import Testing
import BackgroundBudgetCore

/// The vocabularies that grow with the model are `@nonexhaustive` enums: each keeps its names, raw
/// values, conformances and printed form, a `switch` matches its cases, and a case's values are read
/// with `if case` and payload bindings, as a user of the package writes it.
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
        #expect(String(describing: TraceEvent.Kind.fetchStarted) == "fetchStarted")
        #expect(String(describing: TraceEvent.Kind.workDropped(count: 3)) == "workDropped(count: 3)")
        #expect(String(describing: TraceEvent.Kind.exit(.watchdog, code: 0x8bad_f00d)) == "exit(watchdog, code: Optional(2343432205))")
    }

    @Test func aSwitchMatchesCasesWithTheirValues() {
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

    /// What a user writes: `if case` with payload bindings, labels as the case declares them.
    @Test func aCasesValuesAreBoundWithIfCase() {
        let exit = TraceEvent.Kind.exit(.backgroundTaskExpired, code: 0x2182_bad2)
        if case .exit(let reason, let code) = exit {
            #expect(reason == .backgroundTaskExpired && code == 0x2182_bad2)
        } else {
            Issue.record("an exit kind matches .exit")
        }
        if case .exit(let reason, code: let code?) = exit {
            #expect(reason.defaultCode == code)
        } else {
            Issue.record("an exit kind with a code matches .exit(_, code: _?)")
        }
        if case .callback = exit { Issue.record("an exit kind is not a callback") }
        #expect(exit.tag == .exit)

        let kinds: [TraceEvent.Kind] = [
            .callback(.didEnterBackground), .workDropped(count: 2),
            .stateChange(.suspended, cause: .suspend(.noBackgroundWork)), .backgroundTimeRemainingRead(nil),
            .taskProgress("com.example.sync", completed: 3, total: 10), .exit(.userKill, code: nil),
        ]
        let dropped = kinds.compactMap { if case .workDropped(let count) = $0 { count } else { nil } }
        #expect(dropped == [2])
        let causes = kinds.compactMap { if case .stateChange(_, let cause) = $0 { cause } else { nil } }
        #expect(causes == [.suspend(.noBackgroundWork)])
        var progress: [Int64] = []
        for case .taskProgress("com.example.sync", let completed, let total) in kinds { progress += [completed, total] }
        #expect(progress == [3, 10])
        // A case whose value is optional binds the optional itself.
        let remaining: [Duration?] = kinds.compactMap { if case .backgroundTimeRemainingRead(let left) = $0 { .some(left) } else { nil } }
        #expect(remaining == [nil])
        #expect(kinds.contains { if case .exit(.userKill, code: nil) = $0 { true } else { false } })
        #expect(!kinds.contains { if case .exit(.watchdog, _) = $0 { true } else { false } })

        if case .closeScene(let scene) = LifecycleEvent.closeScene("scene-1") { #expect(scene == "scene-1") } else {
            Issue.record("closeScene matches .closeScene")
        }
        if case .reclaimScene = LifecycleEvent.closeScene("scene-1") { Issue.record("closeScene is not reclaimScene") }
        if case .exit(let reason) = LifecycleStep.exit(.userKill) { #expect(reason == .userKill) } else {
            Issue.record("an exit step matches .exit")
        }
        if case .memoryCapacity(let bytes) = DeviceChange.memoryCapacity(nil) { #expect(bytes == nil) } else {
            Issue.record("memoryCapacity(nil) matches .memoryCapacity")
        }
        if case .memoryCapacity = DeviceChange.network(true) { Issue.record("network is not memoryCapacity") }
        if case .regionBoundary(let region) = BackgroundEvent.regionBoundary("home") { #expect(region == "home") } else {
            Issue.record("regionBoundary matches")
        }
        if case .locale(let locale) = SystemNotification.locale("fr_FR") { #expect(locale == "fr_FR") } else {
            Issue.record("locale matches")
        }
        if case .eventWindow(let until) = Explanation.Hold.eventWindow(until: .seconds(30)) {
            #expect(until == .seconds(30))
        } else {
            Issue.record("eventWindow matches")
        }
        if case .pendingLimitReached(let limit) = TaskSchedulerError.Cause.pendingLimitReached(1) { #expect(limit == 1) } else {
            Issue.record("pendingLimitReached matches")
        }
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

    /// The shape that crashed `swift build -c release` on Swift 6.3.1, with the vocabularies as structs:
    /// "Found ownership error?!" in CopyPropagation, on `Examples/MemoryPressure`'s
    /// `trace.events.filter { $0.callback == .didReceiveMemoryWarning }`. The compiler bug remains; the
    /// minimal reproducer is two modules built with `-O` (SwiftPM's default cross-module optimisation
    /// inlines `callback` into the client):
    ///
    /// ```swift
    /// // module Lib
    /// public struct Callback: Hashable, Sendable {
    ///     let id: Int
    ///     public init(id: Int) { self.id = id }
    ///     public static let warning = Callback(id: 1)
    /// }
    /// public enum Kind: Sendable { case callback(Callback); case exit(String) }
    /// public struct Event: Sendable {
    ///     public var kind: Kind
    ///     public init(kind: Kind) { self.kind = kind }
    ///     public var callback: Callback? {
    ///         if case .callback(let callback) = kind { return callback }
    ///         return nil
    ///     }
    /// }
    /// // module App, depending on Lib
    /// func count(_ events: [Event]) -> Int { events.filter { $0.callback == .warning }.count }
    /// ```
    ///
    /// Any struct in `Callback`'s place crashes it (a struct over a `package enum`, as the vocabularies
    /// were, or one with an `Int`); the sibling case needs a payload that is not trivial (`String`). The
    /// workarounds, each checked with 6.3.1: `Callback` an enum (what the vocabularies are now), or
    /// matching the payload in the closure, `if case .callback(.warning) = $0.kind`. CI's release build
    /// of `MemoryPressure` guards the original site; this test keeps its two spellings agreeing.
    @Test func filteringEntriesByTheirCallbackAgreesWithMatchingTheirKind() {
        let events: [TraceEvent] = [
            TraceEvent(time: .seconds(1), app: "notes", kind: .callback(.didReceiveMemoryWarning)),
            TraceEvent(time: .seconds(1), app: "notes", kind: .exit(.memoryPressure, code: nil)),
            TraceEvent(time: .seconds(2), app: "maps", kind: .callback(.didEnterBackground)),
            TraceEvent(time: .seconds(3), app: "maps", kind: .callback(.didReceiveMemoryWarning)),
        ]
        let byCallback = events.filter { $0.callback == .didReceiveMemoryWarning }
        let byKind = events.filter { if case .callback(.didReceiveMemoryWarning) = $0.kind { true } else { false } }
        #expect(byCallback.map(\.app) == ["notes", "maps"])
        #expect(byKind.map(\.app) == byCallback.map(\.app))
    }
}
