import Testing
import BackgroundBudgetCore

/// The pure core decides a scene-based app's steps: the app delegate's launch and termination steps,
/// scene callbacks in place of its foreground and background ones, and app states derived from the
/// scenes [S2][S4][S10][S11][S100]; refusals change nothing.
@Suite struct SceneStepTests {
    static let app: AppID = "notes"

    /// The steps of the delivery an event decides.
    private static func steps(_ effects: [Effect]) -> [String] {
        effects.flatMap { effect -> [String] in
            guard case .deliver(let delivery) = effect else { return [] }
            return delivery.steps.map(\.description)
        }
    }

    private func core(multiple: Bool = false) throws -> DeviceCore {
        var core = DeviceCore(policy: .iOS13)
        var manifest = AppManifest(id: Self.app)
        manifest.sceneManifest = SceneManifest(supportsMultipleScenes: multiple)
        try core.install(manifest)
        return core
    }

    @Test func theCoreDecidesTheScenesStepsInApplesOrder() throws {
        var core = try core(multiple: true)
        #expect(Self.steps(try core.apply(.launch, to: Self.app, at: .zero).effects) == [
            "enter(background)", "application:willFinishLaunchingWithOptions", "application:didFinishLaunchingWithOptions",
            "scene:willConnectToSession:options(scene-1)", "sceneWillEnterForeground(scene-1)",
            "scene(scene-1, foregroundInactive)", "enter(inactive)",
            "scene(scene-1, foregroundActive)", "enter(active)", "sceneDidBecomeActive(scene-1)",
        ])
        _ = core.settle(Self.app, incarnation: 1, at: .zero)
        #expect(Self.steps(try core.apply(.openScene, to: Self.app, at: .seconds(1)).effects) == [
            "scene:willConnectToSession:options(scene-2)", "sceneWillEnterForeground(scene-2)",
            "scene(scene-2, foregroundInactive)", "scene(scene-2, foregroundActive)", "sceneDidBecomeActive(scene-2)",
        ])
        _ = core.settle(Self.app, incarnation: 1, at: .seconds(1))
        // Both resign first, then both go to the background; the app follows the last one.
        #expect(Self.steps(try core.apply(.pressHome, to: Self.app, at: .seconds(2)).effects) == [
            "sceneWillResignActive(scene-1)", "scene(scene-1, foregroundInactive)",
            "sceneWillResignActive(scene-2)", "scene(scene-2, foregroundInactive)", "enter(inactive)",
            "scene(scene-1, background)", "sceneDidEnterBackground(scene-1)",
            "scene(scene-2, background)", "enter(background)", "sceneDidEnterBackground(scene-2)",
        ])
        #expect(core.sceneState("scene-2", of: Self.app) == .background)
        #expect(core.state(of: Self.app) == .background)
    }

    @Test func aRefusedSceneEventChangesNothing() throws {
        var core = try core()
        _ = try core.apply(.launch, to: Self.app, at: .zero)
        let before = core.records[core.slot(Self.app)].scenes
        #expect(throws: LifecycleError(event: .reclaimScene("scene-1"), state: .active, problem: .sceneNotInBackground, app: Self.app)) {
            try core.apply(.reclaimScene("scene-1"), to: Self.app, at: .zero)
        }
        #expect(throws: LifecycleError(event: .closeScene("scene-7"), state: .active, problem: .noSuchScene, app: Self.app)) {
            try core.apply(.closeScene("scene-7"), to: Self.app, at: .zero)
        }
        #expect(throws: LifecycleError(event: .openScene, state: .active, problem: .multipleScenesNotSupported, app: Self.app)) {
            try core.apply(.openScene, to: Self.app, at: .zero)
        }
        #expect(core.records[core.slot(Self.app)].scenes == before)
        // The pure transition function knows no scenes: scene events need the device.
        #expect(throws: LifecycleError(event: .openScene, state: .active, problem: .noScenes)) {
            try Lifecycle.transition(from: .active, on: .openScene)
        }
    }
}
