import BackgroundBudgetCore
import BackgroundBudgetRuntime

/// The delegate a scenario installs for each app: it performs the app's behaviour in each callback.
/// For a scene-based app it is the scene delegate too: the behaviour of a foreground or background
/// callback runs in the scene callback that replaces it (``SceneCallback/replacedAppCallback``).
package final class ScenarioDelegate: ApplicationDelegate, SceneDelegate {
    let behaviour: ScenarioBehaviour

    package init(_ behaviour: ScenarioBehaviour) {
        self.behaviour = behaviour
    }

    private func perform(_ callback: AppCallback, _ application: Application) {
        for step in behaviour.steps[callback] ?? [] { step.perform(in: application) }
    }

    package func application(_ application: Application, willFinishLaunchingWithOptions options: LaunchOptions) {
        observeNotifications(of: application)
        perform(.willFinishLaunching, application)
    }
    package func application(_ application: Application, didFinishLaunchingWithOptions options: LaunchOptions) {
        perform(.didFinishLaunching, application)
    }
    package func applicationDidBecomeActive(_ application: Application) { perform(.didBecomeActive, application) }
    package func applicationWillResignActive(_ application: Application) { perform(.willResignActive, application) }
    package func applicationDidEnterBackground(_ application: Application) { perform(.didEnterBackground, application) }
    package func applicationWillEnterForeground(_ application: Application) { perform(.willEnterForeground, application) }
    package func applicationWillTerminate(_ application: Application) { perform(.willTerminate, application) }
    package func application(_ application: Application, didReceive event: BackgroundEvent) {
        for step in behaviour.onEvent { step.perform(in: application) }
    }
    package func application(_ application: Application,
                     performFetchWithCompletionHandler completionHandler: @escaping @Sendable (BackgroundFetchResult) -> Void) {
        guard let fetch = behaviour.fetch else { return completionHandler(.noData) }
        application.simulateWork(for: fetch.work)
        if let result = fetch.result { completionHandler(result) }
    }

    private func perform(_ callback: AppCallback, _ scene: Scene) {
        for step in behaviour.steps[callback] ?? [] { step.perform(in: scene.application, scene: scene) }
    }

    private func perform(_ callback: SceneCallback, _ scene: Scene) {
        for step in behaviour.sceneSteps[callback] ?? [] { step.perform(in: scene.application, scene: scene) }
    }

    package func scene(_ scene: Scene, willConnectTo session: SceneSession) { perform(.willConnect, scene) }
    package func sceneWillEnterForeground(_ scene: Scene) { perform(AppCallback.willEnterForeground, scene) }
    package func sceneDidBecomeActive(_ scene: Scene) { perform(AppCallback.didBecomeActive, scene) }
    package func sceneWillResignActive(_ scene: Scene) { perform(AppCallback.willResignActive, scene) }
    package func sceneDidEnterBackground(_ scene: Scene) { perform(AppCallback.didEnterBackground, scene) }
    package func sceneDidDisconnect(_ scene: Scene) { perform(.didDisconnect, scene) }
    package func stateRestorationActivity(for scene: Scene) -> UserActivity? { behaviour.restorationActivity }
}
