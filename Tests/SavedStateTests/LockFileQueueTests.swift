import Testing
@testable import SavedState

/// The line the threads of one process wait in before trying a store's lock file: first come, first
/// served, a wait that runs out leaves the line, and each lock file has its own line.
@Suite struct LockFileQueueTests {
    static let path = "/nonexistent/LockFileQueueTests-\(UInt64.random(in: 0...UInt64.max)).state.lock"

    @Test func anEmptyLineIsTakenAtOnceEvenWithADeadlineAlreadyPassed() throws {
        let ticket = try #require(LockFileQueue.enter(Self.path + "a", until: .now))
        LockFileQueue.leave(Self.path + "a", ticket: ticket)
    }

    @Test func aWaitThatRunsOutLeavesTheLineSoTheNextCallerIsNotBlockedByIt() throws {
        let path = Self.path + "b"
        let first = try #require(LockFileQueue.enter(path, until: .now))
        // The line is taken: a caller whose deadline has passed gives up and is no longer in it.
        #expect(LockFileQueue.enter(path, until: .now) == nil)
        #expect(LockFileQueue.enter(path, until: .now - .seconds(1)) == nil)
        LockFileQueue.leave(path, ticket: first)
        // Had the timed-out callers stayed in line, this one would wait behind them and give up too.
        let next = try #require(LockFileQueue.enter(path, until: .now))
        #expect(next != first)
        LockFileQueue.leave(path, ticket: next)
    }

    @Test func eachLockFileHasItsOwnLine() throws {
        let held = try #require(LockFileQueue.enter(Self.path + "c", until: .now))
        let other = try #require(LockFileQueue.enter(Self.path + "d", until: .now))
        LockFileQueue.leave(Self.path + "d", ticket: other)
        LockFileQueue.leave(Self.path + "c", ticket: held)
    }
}
