import BudgetClock

/// A scene-based app's scenes as the system keeps them: the connected scenes with their activation
/// states, and the sessions whose scene was disconnected but not closed by the user (they reconnect,
/// with their state restoration activity, when the user returns).
package struct SceneSet: Sendable, Hashable {
    /// A connected scene.
    package struct Scene: Sendable, Hashable {
        /// Its session's identifier.
        package var id: SceneID
        /// Its activation state.
        package var state: SceneActivationState
    }

    /// The connected scenes, in the order they connected.
    package var connected: [Scene] = []
    /// Sessions with no connected scene that the user has not closed, oldest first.
    package var disconnected: [SceneID] = []
    /// How many sessions the system has created for the app: the next is `scene-\(created + 1)`.
    package var created = 0

    /// The app's state as UIKit derives it from its scenes, for a running app: active when a scene is
    /// active, else inactive when a scene is on screen, else background [S4].
    package var derivedState: ApplicationState {
        if connected.contains(where: { $0.state == .foregroundActive }) { return .active }
        if connected.contains(where: { $0.state == .foregroundInactive }) { return .inactive }
        return .background
    }

    /// The connected scenes in a state.
    package func ids(in state: SceneActivationState) -> [SceneID] {
        connected.filter { $0.state == state }.map(\.id)
    }

    /// The connected scene with an identifier.
    package func scene(_ id: SceneID) -> Scene? { connected.first { $0.id == id } }

    /// The process ended: its scenes disconnect without a callback; their sessions stay unless the
    /// user closed the app.
    package mutating func processEnded(discardingSessions: Bool) {
        disconnected = discardingSessions ? [] : disconnected + connected.map(\.id)
        connected = []
    }
}

/// Builds the steps of a scene-based app's transition: scene callbacks and scene states, with the
/// app's state derived from its scenes after each scene state change (an `.enter` step when it changes).
package struct SceneStepBuilder {
    /// The scenes, as the steps leave them.
    package var scenes: SceneSet
    /// The app's state, as the steps leave it.
    package var appState: ApplicationState
    /// The steps so far.
    package var steps: [LifecycleStep] = []

    /// Starts from an app's scenes and state.
    package init(scenes: SceneSet, appState: ApplicationState) {
        self.scenes = scenes
        self.appState = appState
    }

    /// The app's state becomes `state` (without a scene change: launch, resume).
    package mutating func enter(_ state: ApplicationState) {
        steps.append(.enter(state))
        appState = state
    }

    /// Calls a scene delegate method.
    package mutating func call(_ callback: SceneCallback, _ id: SceneID) {
        steps.append(.sceneCallback(callback, id))
    }

    /// A scene's state changes; the app's follows when its derived state changes.
    package mutating func set(_ id: SceneID, _ state: SceneActivationState) {
        guard let index = scenes.connected.firstIndex(where: { $0.id == id }) else { return }
        scenes.connected[index].state = state
        steps.append(.sceneState(state, id))
        let derived = scenes.derivedState
        if derived != appState { enter(derived) }
    }

    /// Connects a scene: the latest disconnected session that was not closed, or a new one.
    package mutating func connect(reconnecting: Bool) -> SceneID {
        let id: SceneID
        if reconnecting, let last = scenes.disconnected.popLast() {
            id = last
        } else {
            scenes.created += 1
            id = SceneID(rawValue: "scene-\(scenes.created)")
        }
        scenes.connected.append(SceneSet.Scene(id: id, state: .unattached))
        call(.willConnect, id)
        return id
    }

    /// Brings scenes to the foreground, phase by phase: `sceneWillEnterForeground` for each, each
    /// foreground-inactive, then each foreground-active with `sceneDidBecomeActive` [S1][S100].
    package mutating func bringToForeground(_ ids: [SceneID]) {
        for id in ids { call(.willEnterForeground, id) }
        for id in ids { set(id, .foregroundInactive) }
        activate(ids)
    }

    /// Makes foreground-inactive scenes active: each becomes active, then `sceneDidBecomeActive`.
    package mutating func activate(_ ids: [SceneID]) {
        for id in ids {
            set(id, .foregroundActive)
            call(.didBecomeActive, id)
        }
    }

    /// Makes active scenes inactive: `sceneWillResignActive`, then the state.
    package mutating func resign(_ ids: [SceneID]) {
        for id in ids {
            call(.willResignActive, id)
            set(id, .foregroundInactive)
        }
    }

    /// Sends foreground scenes to the background: the active ones resign first, then each enters the
    /// background and gets `sceneDidEnterBackground` [S10].
    package mutating func sendToBackground(_ ids: [SceneID]) {
        resign(ids.filter { scenes.scene($0)?.state == .foregroundActive })
        for id in ids {
            set(id, .background)
            call(.didEnterBackground, id)
        }
    }

    /// Disconnects a scene: `sceneDidDisconnect`, then unattached; its session stays for a later
    /// reconnection unless `discardingSession` (the user closed it) [S11].
    package mutating func disconnect(_ id: SceneID, discardingSession: Bool) {
        call(.didDisconnect, id)
        steps.append(.sceneState(.unattached, id))
        scenes.connected.removeAll { $0.id == id }
        if !discardingSession { scenes.disconnected.append(id) }
    }
}
