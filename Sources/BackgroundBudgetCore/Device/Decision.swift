/// What every core input returns: the answer the caller asked for (nothing, for most inputs) and the
/// effects the shell performs, in order.
///
/// One shape for every input of ``DeviceCore`` that takes a decision, so the shell takes every
/// decision the same way: it performs ``effects`` under its lock and hands ``value`` back to the code
/// that called. An input that only yields effects returns a `Decision<Void>`, written as the list of
/// effects (`return [.disarm(app, .watchdog)]`) or made from them (`Decision(effects)`).
package struct Decision<Value> {
    /// The answer to the caller: a task's identifier, whether an event was delivered, a refusal.
    package var value: Value
    /// The effects, in the order the shell performs them.
    package var effects: [Effect]

    /// An answer and the effects that go with it.
    package init(_ value: Value, effects: [Effect]) {
        self.value = value
        self.effects = effects
    }
}

extension Decision: Sendable where Value: Sendable {}

extension Decision: ExpressibleByArrayLiteral where Value == Void {
    /// Effects alone.
    package init(_ effects: [Effect]) {
        self.init((), effects: effects)
    }

    /// Effects alone, written as a list.
    package init(arrayLiteral effects: Effect...) {
        self.init(effects)
    }
}
