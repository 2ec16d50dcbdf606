import Dispatch
import Testing
import BackgroundBudget
import BackgroundBudgetCore
@testable import BackgroundBudgetScenario
import BudgetClock
import BackgroundBudgetTestKit

/// Reports a call for the first VoIP push, during which a second push arrives that it never reports.
final class DoublePushDelegate: ApplicationDelegate {
    let pushes = LockedValue(0)
    func application(_ application: Application, didReceive event: BackgroundEvent) {
        guard pushes.withLock({ $0 += 1; return $0 }) == 1 else { return }
        application.reportNewIncomingCall()
        _ = application.system?.deliver(.voipPush, to: application)
    }
}

/// VoIP pushes: each one handled needs its own reported call.
@Suite struct VoIPPushTests {
    @Test func everyVoIPPushNeedsItsOwnReport() throws {
        let clock = VirtualClock()
        let system = BackgroundSystem(clock: clock)
        let phone = try system.install(AppManifest(id: "voip", backgroundModes: [.voip]), delegate: DoublePushDelegate())
        try system.open(phone)
        try system.pressHome()
        system.deliver(.voipPush, to: phone)
        clock.advance(by: .seconds(30))
        #expect(system.trace.events.contains { $0.kind == .exit(.voipPushNotReported, code: 0xbaad_ca11) })
    }

    /// Three pushes left unreported (each kills the app) stop VoIP launches: the fourth is dropped,
    /// until the user opens the app [S35][S22].
    @Test func repeatedUnreportedPushesStopVoIPLaunchesUntilTheUserOpensTheApp() throws {
        let clock = VirtualClock()
        let system = BackgroundSystem(clock: clock)
        let phone = try system.install(AppManifest(id: "voip", backgroundModes: [.voip]),
                                       delegate: ScriptedDelegate.eventRecorder(reportsCalls: false))
        try system.open(phone)
        try system.pressHome()
        for _ in 0..<3 {
            clock.advance(by: .seconds(10))
            #expect(system.deliver(.voipPush, to: phone) == .delivered)
        }
        clock.advance(by: .seconds(10))
        #expect(system.deliver(.voipPush, to: phone) == .dropped(.voipLaunchesStopped))
        clock.advance(by: .seconds(10))
        try system.open(phone)
        try system.pressHome()
        clock.advance(by: .seconds(10))
        #expect(system.deliver(.voipPush, to: phone) == .delivered)
        let voip = system.trace.events.filter {
            switch $0.kind {
            case .eventDelivered(.voipPush), .eventDropped(.voipPush, _), .exit: true
            default: false
            }
        }
        let killed = TraceEvent.Kind.exit(.voipPushNotReported, code: 0xbaad_ca11)
        #expect(voip == [
            TraceEvent(time: .seconds(10), app: "voip", kind: .eventDelivered(.voipPush)),
            TraceEvent(time: .seconds(10), app: "voip", kind: killed),
            TraceEvent(time: .seconds(20), app: "voip", kind: .eventDelivered(.voipPush)),
            TraceEvent(time: .seconds(20), app: "voip", kind: killed),
            TraceEvent(time: .seconds(30), app: "voip", kind: .eventDelivered(.voipPush)),
            TraceEvent(time: .seconds(30), app: "voip", kind: killed),
            TraceEvent(time: .seconds(40), app: "voip", kind: .eventDropped(.voipPush, .voipLaunchesStopped)),
            TraceEvent(time: .seconds(60), app: "voip", kind: .eventDelivered(.voipPush)),
            TraceEvent(time: .seconds(60), app: "voip", kind: killed),
        ])
    }

}
