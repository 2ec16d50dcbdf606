import Testing
@testable import BackgroundBudgetExplorer
import BackgroundBudgetCore

/// Shrinking leaves local minima that no single event leaves by dropping two events at once.
@Suite struct ExplorerPairShrinkTests {
    static let leaky: AppID = "com.example.leaky"

    /// Breaks at an exit when the device changed an even number of times (none counts): Low Power
    /// Mode turned on and off again breaks it, turned on alone does not.
    static let evenChanges = ExplorerInvariant("evenDeviceChanges") {
        var changes = 0
        return { event in
            if case .deviceChanged = event.kind { changes += 1 }
            if case .stateChange(.notRunning, _) = event.kind, changes % 2 == 0 { return "exited after \(changes) device changes" }
            return nil
        }
    }

    @Test func twoEventsThatOnlyGoTogetherAreDroppedTogether() throws {
        let small = ExplorerEvent.act(.setMemoryCapacity(bytes: 200_000_000)), smaller = ExplorerEvent.act(.setMemoryCapacity(bytes: 300_000_000))
        let open = ExplorerEvent.act(.open(Self.leaky)), home = ExplorerEvent.act(.home), wait = ExplorerEvent.wait(.seconds(40))
        // In menu order already, so that no swap of neighbours is smaller.
        let menu = try ExplorerMenu([.init(open), .init(small), .init(home), .init(smaller), .init(wait)])
        let explorer = try Explorer(target: .leakyUpload, invariants: [Self.evenChanges], menu: menu)
        let found = [open, small, home, smaller, wait]
        #expect(explorer.firstViolation(in: found)?.invariant == "evenDeviceChanges")
        // Neither change can go alone (one change is odd), nor be replaced, nor swapped: without
        // dropping both at once, shrinking stops at five events.
        #expect(explorer.firstViolation(in: [open, home, smaller, wait]) == nil)
        #expect(explorer.firstViolation(in: [open, small, home, wait]) == nil)
        let failure = explorer.shrink(found, invariant: "evenDeviceChanges")
        #expect(failure.events == [open, home, .wait(.seconds(30))])
    }
}
