// Apple's own types conform to the seams, so that code written against them takes
// `UIApplication.shared`, `BGTaskScheduler.shared` and `ProcessInfo.processInfo` on a device.
// Compiled only with Apple's SDKs; the declarations they rely on are Apple's, as documented at
// https://developer.apple.com/documentation/uikit/uiapplication and
// https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler.

#if canImport(UIKit) && !os(watchOS)
import UIKit

extension UIApplication: BackgroundTaskApplication {}
extension UIBackgroundTaskIdentifier: BackgroundTaskIdentifierShape {}
extension UIApplication.State: ApplicationStateShape {}
extension UIBackgroundRefreshStatus: BackgroundRefreshStatusShape {}
#endif

#if canImport(BackgroundTasks) && !os(macOS) && !os(watchOS)
import BackgroundTasks

extension BGTask: LaunchedBackgroundTask {}
extension BGTaskRequest: TaskRequestShape {}

extension BGTaskScheduler: BackgroundTaskScheduling {
    /// A `BGAppRefreshTaskRequest`.
    /// - Parameter identifier: A permitted task identifier.
    /// - Returns: The request.
    public func appRefreshTaskRequest(identifier: String) -> BGTaskRequest {
        BGAppRefreshTaskRequest(identifier: identifier)
    }

    /// A `BGProcessingTaskRequest` with its two requirements.
    /// - Parameters:
    ///   - identifier: A permitted task identifier.
    ///   - requiresNetworkConnectivity: Whether it runs only with a network connection.
    ///   - requiresExternalPower: Whether it runs only on external power.
    /// - Returns: The request.
    public func processingTaskRequest(identifier: String, requiresNetworkConnectivity: Bool,
                                      requiresExternalPower: Bool) -> BGTaskRequest {
        let request = BGProcessingTaskRequest(identifier: identifier)
        request.requiresNetworkConnectivity = requiresNetworkConnectivity
        request.requiresExternalPower = requiresExternalPower
        return request
    }
}
#endif

#if canImport(Darwin)
import Foundation

extension ProcessInfo: LowPowerModeReporting {}
#endif
