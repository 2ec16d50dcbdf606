import BackgroundBudgetCore

/// Where a step that reads the scene whose callback runs it (`readRestorationActivity`) may stand:
/// directly in a scene callback's steps. Anywhere else there is no scene to read, so validation
/// refuses it rather than record something no app could have read.
extension ScenarioBehaviour {
    /// The app-delegate callbacks a scene callback replaces in an app with scenes, whose steps then run
    /// with a scene (``/BackgroundBudgetCore/SceneCallback/replacedAppCallback``).
    static let sceneReplacedCallbacks = Set(SceneCallback.allCases.compactMap(\.replacedAppCallback))

    /// One problem for each step that reads a scene where no scene callback runs it.
    /// - Parameters:
    ///   - sceneBased: Whether the app declares scenes.
    ///   - path: The behaviour's JSONPath.
    func sceneStepProblems(sceneBased: Bool, at path: String) -> [ScenarioError] {
        var problems: [ScenarioError] = []
        func check(_ steps: [ScenarioStep], at path: String, inScene: Bool) {
            for (index, step) in steps.enumerated() {
                let stepPath = "\(path)[\(index)]"
                switch step {
                case .readRestorationActivity where !inScene:
                    problems.append(ScenarioError(.outsideSceneCallback("readRestorationActivity"), path: stepPath))
                case .appTask(_, let nested), .queueWork(_, _, let nested):
                    // The app's later code runs outside the callback: no scene.
                    check(nested, at: stepPath + ".then", inScene: false)
                default:
                    break
                }
            }
        }
        for callback in AppCallback.allCases {
            guard let list = steps[callback] else { continue }
            check(list, at: "\(path).\(callback.eventName)", inScene: sceneBased && Self.sceneReplacedCallbacks.contains(callback))
        }
        for callback in SceneCallback.allCases {
            guard let list = sceneSteps[callback] else { continue }
            check(list, at: "\(path).\(callback.eventName)", inScene: sceneBased && callback.replacedAppCallback == nil)
        }
        check(onEvent, at: "\(path).\(Self.onEventKey)", inScene: false)
        for name in observed.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            check(observed[name] ?? [], at: "\(path).\(name.rawValue)", inScene: false)
        }
        return problems
    }
}
