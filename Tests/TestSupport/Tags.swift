import Testing

extension Tag {
    /// Tests that wait on real time: few, lenient, and each well under a second; they run only with
    /// `BGBUDGET_LONG_TESTS=1` (see `LongRun`).
    @Tag package static var realTime: Self

    /// Tests that start child processes and kill them (a short run by default, the full one with
    /// `BGBUDGET_LONG_TESTS=1`): slower than the rest; run with
    /// `swift test --filter StateStoreCrashTests` or skip with `--skip StateStoreCrashTests`.
    @Tag package static var crash: Self
}
