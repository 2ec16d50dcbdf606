import BackgroundBudgetCore
import BackgroundBudgetRuntime

/// The names of background events in scenario files.
enum BackgroundEventKind: String, CaseIterable {
    case significantLocationChange, regionBoundary, silentPush, voipPush, bluetoothCentral, bluetoothPeripheral,
         accessory, newsstandDownload

    /// The event; `regionBoundary` needs a region and the others take none.
    func event(region: String?, path event: ObjectReader) throws(ScenarioError) -> BackgroundEvent {
        if self == .regionBoundary {
            guard let region else { _ = try event.required("region"); return .regionBoundary("") }
            return .regionBoundary(region)
        }
        if region != nil, let reader = event.optional("region") {
            // Only regionBoundary events take a region.
            throw reader.error(.unknownKey("region", accepted: ["app", "event"]))
        }
        switch self {
        case .significantLocationChange: return .significantLocationChange
        case .silentPush: return .silentPush
        case .voipPush: return .voipPush
        case .bluetoothCentral: return .bluetooth(.central)
        case .bluetoothPeripheral: return .bluetooth(.peripheral)
        case .accessory: return .accessory
        case .newsstandDownload: return .newsstandDownload
        case .regionBoundary: return .regionBoundary(region ?? "")
        }
    }
}
