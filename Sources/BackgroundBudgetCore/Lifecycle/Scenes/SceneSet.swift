import BudgetTime

/// A scene-based app's scenes as the system keeps them: the connected scenes with their activation
/// states, and the sessions whose scene was disconnected but not closed by the user (they reconnect,
/// with their state restoration activity, when the user returns).
///
/// Costs, with n connected scenes: finding a scene, changing its state, connecting one, the app's
/// derived state and the last connected scene are O(1) (amortized); disconnecting one is O(1)
/// amortized (the order is kept by leaving a hole, closed up once holes are half the slots); listing
/// the scenes, or those in a state, is O(n).
package struct SceneSet: Sendable, Hashable {
    /// A connected scene.
    package struct Scene: Sendable, Hashable {
        /// Its session's identifier.
        package private(set) var id: SceneID
        /// Its activation state.
        package internal(set) var state: SceneActivationState

        /// A scene with an identifier and a state.
        package init(id: SceneID, state: SceneActivationState) {
            self.id = id
            self.state = state
        }
    }

    /// The connected scenes in the order they connected, with a `nil` hole where one disconnected.
    private var slots: [Scene?] = []
    /// Where each connected scene is in `slots`.
    private var position: [SceneID: Int] = [:]
    /// How many connected scenes are in each state.
    private var counts: [SceneActivationState: Int] = [:]
    /// Sessions with no connected scene that the user has not closed, oldest first.
    var disconnected: [SceneID] = []
    /// How many sessions the system has created for the app: the next is `scene-\(created + 1)`.
    var created = 0

    /// No scenes.
    package init() {}

    /// The connected scenes, in the order they connected.
    package var connected: [Scene] { slots.compactMap { $0 } }

    /// The most recently connected scene still connected.
    package var lastConnected: Scene? { slots.last { $0 != nil } ?? nil }

    /// The app's state as UIKit derives it from its scenes, for a running app: active when a scene is
    /// active, else inactive when a scene is on screen, else background [S4].
    package var derivedState: ApplicationState {
        if counts[.foregroundActive, default: 0] > 0 { return .active }
        if counts[.foregroundInactive, default: 0] > 0 { return .inactive }
        return .background
    }

    /// The connected scenes in a state, in the order they connected.
    package func ids(in state: SceneActivationState) -> [SceneID] {
        guard counts[state, default: 0] > 0 else { return [] }
        return slots.compactMap { $0?.state == state ? $0?.id : nil }
    }

    /// The connected scene with an identifier.
    package func scene(_ id: SceneID) -> Scene? { position[id].flatMap { slots[$0] } }

    /// Connects a scene at the end of the order.
    package mutating func append(_ scene: Scene) {
        position[scene.id] = slots.count
        slots.append(scene)
        counts[scene.state, default: 0] += 1
    }

    /// Changes a connected scene's state; `false` when it is not connected.
    @discardableResult
    package mutating func setState(_ state: SceneActivationState, of id: SceneID) -> Bool {
        guard let index = position[id], let old = slots[index]?.state else { return false }
        counts[old, default: 0] -= 1
        counts[state, default: 0] += 1
        slots[index]?.state = state
        return true
    }

    /// Disconnects a scene (nothing when it is not connected).
    package mutating func remove(_ id: SceneID) {
        guard let index = position.removeValue(forKey: id), let old = slots[index] else { return }
        counts[old.state, default: 0] -= 1
        slots[index] = nil
        if position.count * 2 < slots.count { compact() }
    }

    /// Closes up the holes, keeping the order.
    private mutating func compact() {
        slots = slots.filter { $0 != nil }
        for (index, scene) in slots.enumerated() { if let scene { position[scene.id] = index } }
    }

    /// The process ended: its scenes disconnect without a callback; their sessions stay unless the
    /// user closed the app.
    package mutating func processEnded(discardingSessions: Bool) {
        disconnected = discardingSessions ? [] : disconnected + connected.map(\.id)
        slots = []
        position = [:]
        counts = [:]
    }

    /// Equal when the same scenes are connected in the same order and states, with the same
    /// disconnected sessions and count of sessions created (holes do not matter).
    package static func == (lhs: SceneSet, rhs: SceneSet) -> Bool {
        lhs.created == rhs.created && lhs.disconnected == rhs.disconnected && lhs.connected == rhs.connected
    }

    /// Hashes what ``==`` compares.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(created)
        hasher.combine(disconnected)
        hasher.combine(connected)
    }
}

/// Builds the steps of a scene-based app's transition: scene callbacks and scene states, with the
/// app's state derived from its scenes after each scene state change (an `.enter` step when it changes).
package struct SceneStepBuilder {
    /// The scenes, as the steps leave them.
    package internal(set) var scenes: SceneSet
    /// The app's state, as the steps leave it.
    private(set) var appState: ApplicationState
    /// The steps so far.
    package internal(set) var steps: [LifecycleStep] = []

    /// Starts from an app's scenes and state.
    package init(scenes: SceneSet, appState: ApplicationState) {
        self.scenes = scenes
        self.appState = appState
    }

    /// Starts from an app's scenes, moved out of `scenes` (left empty) so that changing them copies
    /// nothing; ``handBack(to:)`` moves them back.
    package init(taking scenes: inout SceneSet, appState: ApplicationState) {
        self.scenes = SceneSet()
        self.appState = appState
        swap(&self.scenes, &scenes)
    }

    /// Moves the scenes, as the steps leave them, into `scenes`.
    package mutating func handBack(to scenes: inout SceneSet) {
        swap(&self.scenes, &scenes)
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
        guard scenes.setState(state, of: id) else { return }
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
        scenes.append(SceneSet.Scene(id: id, state: .unattached))
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
        scenes.remove(id)
        if !discardingSession { scenes.disconnected.append(id) }
    }
}

extension SceneSet: CustomReflectable {
    /// What the set holds, not how: the connected scenes in order, the disconnected sessions and the
    /// count of sessions created. Holes and index tables are left out, so two sets that are equal (`==`)
    /// reflect alike, as the explorer's reflection fingerprint needs.
    package var customMirror: Mirror {
        Mirror(self, children: ["connected": connected, "disconnected": disconnected, "created": created])
    }
}
