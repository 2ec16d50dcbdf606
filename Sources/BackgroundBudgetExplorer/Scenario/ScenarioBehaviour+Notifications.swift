import BackgroundBudgetCore
import BackgroundBudgetRuntime

extension ScenarioBehaviour {
    /// The lifecycle notifications a scenario app may observe, each a behaviour key spelled as its
    /// Objective-C name (`"UIApplicationWillResignActiveNotification": [steps]`), as an SDK that does not
    /// own the app delegate observes them.
    static let observableNotifications: [AppNotification.Name] = [
        Application.didFinishLaunchingNotification, Application.didBecomeActiveNotification,
        Application.willResignActiveNotification, Application.didEnterBackgroundNotification,
        Application.willEnterForegroundNotification, Application.willTerminateNotification,
        Application.didReceiveMemoryWarningNotification, Application.backgroundRefreshStatusDidChangeNotification,
        Scene.willConnectNotification, Scene.didDisconnectNotification, Scene.didActivateNotification,
        Scene.willDeactivateNotification, Scene.willEnterForegroundNotification, Scene.didEnterBackgroundNotification,
        .processInfoPowerStateDidChange,
    ]

    /// The behaviour keys that observe a notification.
    static var notificationKeys: [String] { observableNotifications.map(\.rawValue) }

    /// The notification a behaviour key observes, or `nil` when the key is not a notification's.
    static func observedNotification(forKey key: String) -> AppNotification.Name? {
        observableNotifications.first { $0.rawValue == key }
    }
}

extension ScenarioDelegate {
    /// Adds the app's observers to its notification center, as app code of the launching process
    /// (they go with it when it ends; each launch adds them again): each runs its steps, in order.
    func observeNotifications(of application: Application) {
        for (name, steps) in behaviour.observed.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            application.notificationCenter.addObserver(forName: name, object: nil, queue: nil) { _ in
                for step in steps { step.perform(in: application) }
            }
        }
    }
}
