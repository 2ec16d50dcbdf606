/// Work a clock runs: the closure, wrapped in a struct.
///
/// A deadline heap keeps its payloads in arrays, and an array of a bare function type stores each
/// closure behind a reabstraction thunk: one extra allocation when it is scheduled, an extra call and
/// a release when it runs. A struct with a function field is stored as it is (the *Performance*
/// article has what that bought).
package struct ClockWork: Sendable {
    /// The closure.
    package let body: @Sendable () -> Void

    package init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
    }

    /// Runs the work.
    @inline(__always)
    package func callAsFunction() {
        body()
    }
}
