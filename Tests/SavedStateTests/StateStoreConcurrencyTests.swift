import BudgetLock
import Foundation
import Testing
@testable import SavedState
import BudgetClock
import TestSupport
@testable import StateStoreTorture

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Several writers under one name: separate `StateStore` objects on several threads, and separate
/// processes. The store's file lock serialises them, so no save fails, no save tears another's file,
/// and every load gets a complete copy.
@Suite struct StateStoreConcurrencyTests {
    /// A note whose 50 items all repeat its title, so a load can tell a complete state from a mix.
    static func note(_ title: String) -> Note {
        Note(title: title, items: (0..<50).map { .init(title: "item \($0) of \(title)", done: $0 % 2 == 0) })
    }

    static func isComplete(_ note: Note) -> Bool {
        note == Self.note(note.title)
    }

    @Test(.timeLimit(.minutes(1)))     // a backstop: a lock that is never released would hang here
    func twoStoresSavingTheSameNameFromSeveralThreadsNeverFailAndEveryLoadGetsAGoodCopy() throws {
        try withStateFolder { folder in
            let writers = try (0..<2).map { _ in try StateStore<Note>(directory: folder, name: "note") }
            let readers = try (0..<2).map { _ in try StateStore<Note>(directory: folder, name: "note") }
            try writers[0].save(Self.note("first"))
            let rounds = LongRun.threadedCases(300, quick: 40)
            let failures = LockedValue<[String]>([])
            // Threads 0 to 3 save, two per store; threads 4 and 5 load, each with its own store.
            DispatchQueue.concurrentPerform(iterations: 6) { thread in
                for round in 0..<rounds {
                    do {
                        if thread < 4 {
                            let issues = try writers[thread % 2].save(Self.note("thread \(thread) round \(round)"))
                            if !issues.isEmpty { failures.withLock { $0.append("save: \(issues)") } }
                        } else {
                            let loaded = try readers[thread - 4].load()
                            if !loaded.issues.isEmpty || loaded.source != .current {
                                failures.withLock { $0.append("load: \(loaded.source) \(loaded.issues)") }
                            }
                            if let value = loaded.value, !Self.isComplete(value) {
                                failures.withLock { $0.append("load: an incomplete state \(value.title)") }
                            }
                        }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
            }
            #expect(failures.withLock { $0 } == [])
            let loaded = try StateStore<Note>(directory: folder, name: "note").load()
            #expect(loaded.source == .current && loaded.issues.isEmpty)
            #expect(loaded.value.map(Self.isComplete) == true)
            #expect(try fileNames(in: folder) == ["note.state", "note.state.previous"])
        }
    }

    @Test(.tags(.crash), .timeLimit(.minutes(3)))   // a backstop: every wait inside is bounded
    func twoProcessesSavingTheSameNameNeverFailAndLeaveAGoodCopy() async throws {
        let executable = try #require(StateStoreCrashTests.tortureExecutable(), "StateStoreTorture was not found; build it with `swift build --build-tests`")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("writers-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let saves = LongRun.threadedCases(400, quick: 10)
        let results = await onDedicatedThread { () -> [String] in
            do {
                let children = try (1...2).map { id in
                    try ChildProcess(executable: executable, arguments: ["--writer", folder.path, "\(saves)", "\(id)"])
                }
                // Each child prints `done N` or `problem …`; 60 s is far more than either needs.
                return children.map { $0.nextLine(timeout: .seconds(60)) ?? "no answer within 60 s" }
            } catch {
                return ["\(error)"]
            }
        }
        #expect(results == ["done \(saves)", "done \(saves)"])
        let loaded = try StateStore<TortureState>(directory: folder, name: "torture").load()
        #expect(loaded.source == .current && loaded.issues.isEmpty)
        #expect(loaded.value?.isSelfConsistent == true)
        let sequence = loaded.value?.sequence ?? 0
        #expect(sequence % 1_000_000 <= saves && [1, 2].contains(sequence / 1_000_000))
        #expect(try fileNames(in: folder) == ["torture.state", "torture.state.previous"])
    }

    @Test func whileAnotherHolderKeepsTheLockSavesAndLoadsGiveUpAfterTheirTimeoutAndChangeNothing() throws {
        try withStateFolder { folder in
            // The steps that must succeed use a store that waits: on Linux a child process that
            // another test spawns at that moment holds a copy of the lock file's descriptor until its
            // `exec`, so the lock can stay held for an instant after its holder closed it.
            let settled = try StateStore<Note>(directory: folder, name: "note")
            let store = try StateStore<Note>(directory: folder, name: "note", lockTimeout: .zero)
            let patient = try StateStore<Note>(directory: folder, name: "note", lockTimeout: .milliseconds(20))
            try settled.save(Note(title: "before"))
            let lockPath = folder.appendingPathComponent("note.state.lock").path
            // Another holder: another store of this process, holding the lock on a thread of its own.
            let holding = DispatchSemaphore(value: 0), letGo = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
            Thread {
                _ = try? settled.withLockFile(creatingFolder: false) { (_: inout [StateStoreIssue]) in
                    holding.signal()
                    letGo.wait()
                }
                done.signal()
            }.start()
            holding.wait()
            #expect(throws: StateStoreError(.lockTimeout(waited: .zero), path: lockPath)) {
                try store.save(Note(title: "refused"))
            }
            #expect(throws: StateStoreError(.lockTimeout(waited: .milliseconds(20)), path: lockPath)) {
                try patient.load()
            }
            letGo.signal()
            done.wait()
            #if os(Linux)
            // The lock file itself, held through a descriptor of the test's own (open-file-description
            // locks exclude descriptors, not processes; Darwin's POSIX record locks would not exclude
            // this process from itself, which is why a process's threads queue first).
            let holder = try StateFileLock.acquire(lockPath, timeout: .seconds(5))
            #expect(throws: StateStoreError(.lockTimeout(waited: .zero), path: lockPath)) {
                try store.save(Note(title: "refused"))
            }
            #expect(throws: StateStoreError(.lockTimeout(waited: .milliseconds(20)), path: lockPath)) {
                try patient.load()
            }
            StateFileLock.release(holder)
            #endif
            #expect(try settled.load() == .init(value: Note(title: "before"), source: .current))
            #expect(try fileNames(in: folder) == ["note.state"])
            try settled.save(Note(title: "after"))
            #expect(try settled.load().value == Note(title: "after"))
        }
    }

    #if os(Linux)
    /// A waiter holding a ticket holds up every later arrival, even while nobody holds the lock
    /// (first come, first served), and a ticket whose descriptor is closed, as when its process is
    /// killed, holds up nobody. (Open-file-description locks let one process play both waiters.)
    @Test func aWaitingTicketIsServedFirstAndAClosedOneHoldsUpNobody() throws {
        try withStateFolder { folder in
            let store = try StateStore<Note>(directory: folder, name: "note", lockTimeout: .zero)
            try store.save(Note(title: "before"))
            let lockPath = folder.appendingPathComponent("note.state.lock").path
            // An earlier arrival: a ticket taken as a waiter takes it, and not yet its turn served.
            let waiter = open(lockPath, O_RDWR | O_CLOEXEC)
            try #require(waiter >= 0)
            var locks = RecordLocks(descriptor: waiter, path: lockPath)
            try #require(try locks.tryLock(StateFileLock.doorByte) == .locked)
            let ticket = try #require(try locks.takeTicket())
            try locks.unlock(StateFileLock.doorByte)
            #expect(ticket == StateFileLock.firstTicketByte)
            // The holder byte is free, but a later arrival waits behind the ticket.
            #expect(throws: StateStoreError(.lockTimeout(waited: .zero), path: lockPath)) {
                try store.save(Note(title: "refused"))
            }
            close(waiter)                                  // the waiter dies: its ticket goes with it
            try store.save(Note(title: "after"))
            #expect(try store.load().value == Note(title: "after"))
        }
    }
    #endif

    /// A folder (or anything else) at `note.state.lock` is set aside by one writer only, holding the
    /// folder's own lock, however many writers find it at once: none of them fails (formerly
    /// `rename … corrupt-1` failed with ENOENT or EISDIR, `open` with EISDIR, or two saves ran at
    /// once after a live lock file was moved aside), and exactly one thing is set aside.
    /// (Probabilistic: 16 writers released together, 60 rounds with `BGBUDGET_LONG_TESTS=1` and 4
    /// otherwise; the code before the fix failed in the first. A round costs some 50 `fsync`s, about
    /// a quarter of a second on this project's CI disk: the time limit is only a backstop.)
    @Test(.timeLimit(.minutes(5)))
    func aFolderAtTheLockFileNameIsSetAsideOnceAndNoConcurrentSaveFails() throws {
        try withStateFolder { folder in
            let lockPath = folder.appendingPathComponent("note.state.lock").path
            var problems: [String] = []
            for round in 0..<LongRun.threadedCases(60, quick: 4) where problems.isEmpty {
                for entry in try FileManager.default.contentsOfDirectory(atPath: folder.path) where entry.hasPrefix("note.state.lock") {
                    try FileManager.default.removeItem(atPath: folder.appendingPathComponent(entry).path)
                }
                try FileManager.default.createDirectory(atPath: lockPath, withIntermediateDirectories: false)
                let stores = try (0..<16).map { _ in try StateStore<Note>(directory: folder, name: "note") }
                let failures = LockedValue<[String]>([])
                // One thread per writer (not concurrentPerform, which runs as many as there are
                // cores), all released together.
                let start = DispatchSemaphore(value: 0), finished = DispatchGroup()
                for index in stores.indices {
                    finished.enter()
                    Thread {
                        start.wait()
                        do {
                            try stores[index].save(Note(title: "round \(round) writer \(index)"))
                        } catch {
                            failures.withLock { $0.append("round \(round) writer \(index): \(error)") }
                        }
                        finished.leave()
                    }.start()
                }
                for _ in stores.indices { start.signal() }
                try #require(finished.wait(timeout: .now() + .seconds(5)) == .success)
                problems += failures.withLock { $0 }
                let setAside = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("note.state.lock.corrupt-") }
                if setAside.count != 1 {
                    problems.append("round \(round): \(setAside.count) things set aside for one folder in the way: \(setAside.sorted())")
                }
            }
            #expect(problems.isEmpty, "\(problems.count) problems: \(problems.filter { $0.contains("set aside") }.count) with more than one thing set aside; first: \(problems.prefix(5).joined(separator: "\n"))")
        }
    }
}
