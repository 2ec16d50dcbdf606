import Testing

extension Tag {
    /// Tests that start child processes and kill them: slower than the rest, run with
    /// `swift test --filter StateStoreCrashTests` or skip with `--skip StateStoreCrashTests`.
    @Tag static var crash: Self
}
