import Foundation
import Testing
@testable import BackgroundBudget
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
            let rounds = LongRun.cases(300, quick: 40)
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
        let saves = LongRun.cases(400, quick: 10)
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
            let store = try StateStore<Note>(directory: folder, name: "note", lockTimeout: .zero)
            try store.save(Note(title: "before"))
            let lockPath = folder.appendingPathComponent("note.state.lock").path
            // Another holder: the lock file, locked through a descriptor of the test's own.
            let holder = open(lockPath, O_RDONLY | O_CLOEXEC)
            try #require(holder >= 0)
            try #require(flock(holder, LOCK_EX | LOCK_NB) == 0)
            #expect(throws: StateStoreError(.lockTimeout(waited: .zero), path: lockPath)) {
                try store.save(Note(title: "refused"))
            }
            let patient = try StateStore<Note>(directory: folder, name: "note", lockTimeout: .milliseconds(20))
            #expect(throws: StateStoreError(.lockTimeout(waited: .milliseconds(20)), path: lockPath)) {
                try patient.load()
            }
            close(holder)
            #expect(try store.load() == .init(value: Note(title: "before"), source: .current))
            #expect(try fileNames(in: folder) == ["note.state"])
            try store.save(Note(title: "after"))
            #expect(try patient.load().value == Note(title: "after"))
        }
    }
}
