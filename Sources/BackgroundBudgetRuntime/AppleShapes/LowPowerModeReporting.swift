import BackgroundBudgetCore

/// The part of `ProcessInfo` background code reads
/// ([isLowPowerModeEnabled](https://developer.apple.com/documentation/foundation/processinfo/islowpowermodeenabled)):
/// `ProcessInfo` conforms on Apple platforms, and the model's ``DeviceProcessInfo``
/// (``Application/processInfo``) everywhere.
///
/// ```swift
/// final class Prefetcher<Info: LowPowerModeReporting> {
///     let processInfo: Info
///     init(processInfo: Info = ProcessInfo.processInfo) { self.processInfo = processInfo }
///     var shouldPrefetch: Bool { !processInfo.isLowPowerModeEnabled }
/// }
/// ```
public protocol LowPowerModeReporting {
    /// Whether Low Power Mode is on.
    var isLowPowerModeEnabled: Bool { get }
}

/// The model's `ProcessInfo` for an app: what ``BackgroundSystem/setLowPowerMode(_:)`` last set.
public struct DeviceProcessInfo: LowPowerModeReporting, Sendable {
    /// The app whose device this describes.
    public let application: Application

    /// Whether Low Power Mode is on for the app's device now; `false` once the system is gone.
    public var isLowPowerModeEnabled: Bool {
        guard let system = application.system else { return false }
        return system.state.withLock { $0.core.settings.lowPowerMode }
    }
}

extension Application {
    /// The app's `ProcessInfo.processInfo`, as far as the model has one (``LowPowerModeReporting``).
    public var processInfo: DeviceProcessInfo { DeviceProcessInfo(application: self) }
}
