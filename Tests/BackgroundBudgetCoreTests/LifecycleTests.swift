import Testing
import BackgroundBudgetCore

/// Each documented lifecycle case, as the pure transition function gives it.
@Suite struct LifecycleTests {
    private func steps(_ state: ApplicationState, _ event: LifecycleEvent, exitsOnSuspend: Bool = false) throws -> [LifecycleStep] {
        try Lifecycle.transition(from: state, on: event, exitsOnSuspend: exitsOnSuspend).steps
    }

    @Test func coldLaunchEndsActiveAfterTheLaunchCallbacks() throws {
        let transition = try Lifecycle.transition(from: .notRunning, on: .launch)
        #expect(transition.steps == [
            .enter(.inactive), .callback(.willFinishLaunching), .callback(.didFinishLaunching),
            .enter(.active), .callback(.didBecomeActive),
        ])
        #expect(transition.to == .active)
    }

    @Test func launchIntoTheBackgroundNeverBecomesActive() throws {
        let transition = try Lifecycle.transition(from: .notRunning, on: .launchInBackground(.backgroundFetch))
        #expect(transition.steps == [
            .enter(.background), .callback(.willFinishLaunching), .callback(.didFinishLaunching),
            .callback(.didEnterBackground),
        ])
        #expect(!transition.steps.contains(.callback(.didBecomeActive)))
        #expect(transition.to == .background)
    }

    @Test func dismissedInterruptionResignsThenBecomesActive() throws {
        #expect(try steps(.active, .interruptionBegan) == [.callback(.willResignActive), .enter(.inactive)])
        #expect(try steps(.inactive, .interruptionDismissed) == [.enter(.active), .callback(.didBecomeActive)])
    }

    @Test func answeredInterruptionIsTheFlurry() throws {
        // Expected: didBecomeActive, willResignActive, didEnterBackground (the runtime then suspends).
        let transition = try Lifecycle.transition(from: .inactive, on: .interruptionAnswered)
        #expect(transition.steps == [
            .enter(.active), .callback(.didBecomeActive),
            .callback(.willResignActive), .enter(.inactive),
            .enter(.background), .callback(.didEnterBackground),
        ])
        #expect(transition.to == .background)
    }

    @Test func homeAndAppSwitchResignThenEnterTheBackground() throws {
        let expected: [LifecycleStep] = [
            .callback(.willResignActive), .enter(.inactive), .enter(.background), .callback(.didEnterBackground),
        ]
        #expect(try steps(.active, .pressHome) == expected)
        #expect(try steps(.active, .switchAway) == expected)
        #expect(try steps(.inactive, .pressHome) == [.enter(.background), .callback(.didEnterBackground)])
    }

    @Test func returnFromTheBackgroundPairsWillEnterForegroundWithDidBecomeActive() throws {
        #expect(try steps(.background, .enterForeground) == [
            .callback(.willEnterForeground), .enter(.inactive), .enter(.active), .callback(.didBecomeActive),
        ])
    }

    @Test func returnFromSuspensionResumesIntoTheBackgroundFirst() throws {
        #expect(try steps(.suspended, .enterForeground) == [
            .enter(.background), .callback(.willEnterForeground), .enter(.inactive),
            .enter(.active), .callback(.didBecomeActive),
        ])
    }

    @Test func suspensionAndPurgeAreSilent() throws {
        #expect(try steps(.background, .suspend(.noBackgroundWork)) == [.enter(.suspended)])
        #expect(try steps(.suspended, .purge) == [.exit(.memoryPressure), .enter(.notRunning)])
    }

    @Test func systemWakeResumesIntoTheBackground() throws {
        #expect(try steps(.suspended, .wake(.location)) == [.enter(.background), .callback(.didEnterBackground)])
    }

    @Test func userKillCallsWillTerminateOnlyWhenRunningInTheBackground() throws {
        #expect(try steps(.background, .killFromAppSwitcher) == [
            .callback(.willTerminate), .exit(.userKill), .enter(.notRunning),
        ])
        #expect(try steps(.suspended, .killFromAppSwitcher) == [.exit(.userKill), .enter(.notRunning)])
        #expect(try steps(.notRunning, .killFromAppSwitcher) == [])
    }

    @Test func systemTerminationOfABackgroundAppCallsWillTerminate() throws {
        #expect(try steps(.background, .terminate(.memoryPressure)) == [
            .callback(.willTerminate), .exit(.memoryPressure), .enter(.notRunning),
        ])
        #expect(try steps(.suspended, .terminate(.system)) == [.exit(.system), .enter(.notRunning)])
    }

    @Test func killIsSilentFromAnyRunningState() throws {
        for state in [ApplicationState.inactive, .active, .background, .suspended] {
            #expect(try steps(state, .kill(.watchdog)) == [.exit(.watchdog), .enter(.notRunning)])
        }
    }

    @Test func exitsOnSuspendTerminatesInsteadOfStayingInTheBackground() throws {
        let transition = try Lifecycle.transition(from: .active, on: .pressHome, exitsOnSuspend: true)
        #expect(transition.steps == [
            .callback(.willResignActive), .enter(.inactive), .enter(.background),
            .callback(.didEnterBackground), .callback(.willTerminate), .exit(.exitsOnSuspend), .enter(.notRunning),
        ])
        #expect(transition.to == .notRunning)
        #expect(!transition.steps.contains(.enter(.suspended)))
        let answered = try Lifecycle.transition(from: .inactive, on: .interruptionAnswered, exitsOnSuspend: true)
        #expect(answered.to == .notRunning)
    }

    @Test func exitsOnSuspendAppsAreNeverRunInTheBackground() {
        #expect(throws: LifecycleError(event: .launchInBackground(.backgroundFetch), state: .notRunning, problem: .exitsOnSuspend)) {
            try Lifecycle.transition(from: .notRunning, on: .launchInBackground(.backgroundFetch), exitsOnSuspend: true)
        }
    }

    @Test(arguments: [
        (ApplicationState.active, LifecycleEvent.launch, LifecycleError.Problem.alreadyRunning),
        (.suspended, .launchInBackground(.location), .alreadyRunning),
        (.background, .interruptionBegan, .notActive),
        (.active, .interruptionDismissed, .notInterrupted),
        (.background, .interruptionAnswered, .notInterrupted),
        (.suspended, .pressHome, .notInForeground),
        (.notRunning, .switchAway, .notInForeground),
        (.notRunning, .enterForeground, .notRunning),
        (.active, .enterForeground, .alreadyInForeground),
        (.suspended, .suspend(.noBackgroundWork), .notInBackground),
        (.background, .wake(.voip), .notSuspended),
        (.active, .killFromAppSwitcher, .inForeground),
        (.background, .purge, .notSuspended),
        (.active, .terminate(.system), .inForeground),
        (.notRunning, .terminate(.system), .notRunning),
        (.notRunning, .kill(.watchdog), .notRunning),
    ])
    func impossibleEventsAreRefusedWithTheReason(state: ApplicationState, event: LifecycleEvent, problem: LifecycleError.Problem) {
        #expect(throws: LifecycleError(event: event, state: state, problem: problem)) {
            try Lifecycle.transition(from: state, on: event)
        }
    }

    @Test func everyStateAndEventEitherTransitionsConsistentlyOrThrows() {
        let events: [LifecycleEvent] = [
            .launch, .launchInBackground(.backgroundFetch), .interruptionBegan, .interruptionDismissed,
            .interruptionAnswered, .pressHome, .switchAway, .enterForeground, .suspend(.noBackgroundWork),
            .wake(.location), .killFromAppSwitcher, .purge, .terminate(.system), .kill(.watchdog),
        ]
        // Apple's allowed transitions, plus suspended → background on resume.
        let allowed: Set<[ApplicationState]> = [
            [.notRunning, .inactive], [.inactive, .active], [.active, .inactive], [.inactive, .background],
            [.notRunning, .background], [.background, .inactive], [.background, .suspended],
            [.suspended, .background], [.suspended, .notRunning], [.background, .notRunning],
            [.inactive, .notRunning], [.active, .notRunning],
        ]
        for state in ApplicationState.allCases {
            for event in events {
                for exitsOnSuspend in [false, true] {
                    guard let transition = try? Lifecycle.transition(from: state, on: event, exitsOnSuspend: exitsOnSuspend) else { continue }
                    var current = state
                    for case .enter(let next) in transition.steps {
                        #expect(allowed.contains([current, next]), "\(state) --\(event)--> \(current) → \(next)")
                        current = next
                    }
                    #expect(current == transition.to)
                    if exitsOnSuspend { #expect(transition.to != .suspended) }
                }
            }
        }
    }

    @Test func errorsSayWhatWasRefusedAndWhy() {
        let error = LifecycleError(event: .pressHome, state: .background, problem: .notInForeground, app: "com.example.news")
        #expect(error.description == "cannot pressHome: app 'com.example.news' is background, not in the foreground")
    }
}
