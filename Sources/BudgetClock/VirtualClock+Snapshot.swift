/// Saving and restoring a virtual clock's pending work, for tools that explore many runs from one state.
extension VirtualClock {
    /// The clock's state: its instant and its pending work (closures kept as they are). Nothing changes.
    package var savedState: State {
        state.withLock { $0 }
    }

    /// Puts back a state ``savedState`` returned on this clock; the work pending now is dropped, after
    /// the lock is released (a closure's release may run code).
    /// - Parameter saved: The state to restore.
    package func restore(_ saved: State) {
        let dropped = state.withLock { state -> State in
            defer { state = saved }
            return state
        }
        withExtendedLifetime(dropped) {}
    }

}
