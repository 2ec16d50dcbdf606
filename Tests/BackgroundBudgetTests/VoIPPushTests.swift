import Dispatch
import Testing
import TestSupport
@testable import BackgroundBudget
@testable import BackgroundBudgetCore
@testable import BackgroundBudgetScenario
@testable import BudgetClock
@testable import JobBudgets
@testable import SavedState
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

}
