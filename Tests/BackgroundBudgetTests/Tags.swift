import Testing

extension Tag {
    /// Tests that wait on real time: few, lenient, and each well under a second.
    @Tag static var realTime: Self

    /// Tests that start child processes and kill them: slower than the rest, run with
    /// `swift test --filter StateStoreCrashTests` or skip with `--skip StateStoreCrashTests`.
    @Tag static var crash: Self
}
