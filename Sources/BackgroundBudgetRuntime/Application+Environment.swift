import Foundation

/// What an app's code may read about its world, shaped as UIKit and Foundation give it.
extension Application {
    /// The app whose code is running, as `UIApplication.shared` gives it: the app of the delegate
    /// method, main-queue work, ``ApplicationQueue`` work, ``runLater(after:_:)`` body or app task
    /// (`task(priority:_:)`) that reads it. `nil` outside app code: in a
    /// test, a scenario, or a `Task` started elsewhere.
    ///
    /// It is a task-local value bound around each piece of app work, so synchronous code called from it
    /// and `Task { }` or `async let` started from it see it too; `Task.detached` does not (the same holds
    /// for whether such code is frozen with the app: see the *App code and its process* article).
    public static var current: Application? {
        ProcessContext.current?.application
    }

    /// The system's current date (`Date()` as the app sees it): ``BackgroundSystem/currentDate``, the
    /// one mapping of the system's clock to dates that request dates, such as
    /// ``ScheduledTaskRequest/earliestBeginDate``, and log stamps go through. `Date()` reads the
    /// machine's clock, which a virtual device does not follow.
    ///
    /// ```swift
    /// var request = AppRefreshTaskRequest(identifier: "com.example.refresh")
    /// request.earliestBeginDate = application.currentDate.addingTimeInterval(15 * 60)
    /// ```
    public var currentDate: Date {
        system?.currentDate ?? BackgroundSystem.virtualReferenceDate
    }

    /// Whether Low Power Mode is on (`ProcessInfo.processInfo.isLowPowerModeEnabled`); see
    /// ``BackgroundSystem/setLowPowerMode(_:)``.
    public var isLowPowerModeEnabled: Bool {
        system?.isLowPowerModeEnabled ?? false
    }
}

extension BackgroundSystem {
    /// Whether Low Power Mode is on (``setLowPowerMode(_:)``); off at first.
    public var isLowPowerModeEnabled: Bool {
        state.withLock { $0.core.settings.lowPowerMode }
    }
}
