// The crash test's child: saves `TortureState`s in a loop until it is killed, reporting each step on
// standard output so the test knows what was durably saved when it killed it.
//
//     StateStoreTorture <folder> [saves]
//     StateStoreTorture --writer <folder> <saves> <id>
//     StateStoreTorture --fair <folder> <seconds> <id> <lock timeout in ms, or "default"> <results file> [--announce]
//
// Prints `ready N` after loading (N is the sequence number found, 0 for none), then `writing N` before
// and `saved N` after each save, and exits after `saves` saves (default: never). Any problem found is
// printed as `problem …` and the exit status is 1.
//
// With `--writer`, it is one of several processes saving under the same name at once: it saves
// `saves` states numbered from `id` × 1,000,000 + 1, loads after each save (which must return a
// complete state with no issue, though possibly another writer's), and prints `done N` at the end.
//
// With `--fair`, it is one of several processes saving a small state under the name `fair` as fast as
// it can for `seconds`, timing each save on the system-wide monotonic clock (so the test can compare
// the times of several processes): it writes one line per save to the results file, `<called ns>
// <returned ns> ok|timeout`, and prints `done N` (N saves) at the end. Any error other than a lock
// timeout is a problem. With `--announce` it also prints `saving N` before each save, so that a test
// can kill it while it waits in line or holds the lock.
import SavedState
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Writes one line to standard output at once, unbuffered, so a kill cannot lose a reported line.
func report(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    var offset = 0
    while offset < bytes.count {
        let count = bytes[offset...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { exit(2) }               // the test went away: stop
        offset += count
    }
}

func fail(_ message: String) -> Never {
    report("problem \(message)")
    exit(1)
}

/// The `--writer` mode: saves and loads in a loop alongside other writers of the same name.
func runWriter(folder: String, saves: Int, id: Int) -> Never {
    do {
        let store = try StateStore<TortureState>(directory: URL(fileURLWithPath: folder), name: "torture")
        for number in 1...max(saves, 1) {
            let issues = try store.save(TortureState(sequence: id * 1_000_000 + number))
            if let issue = issues.first { fail("save \(number) reported \(issue)") }
            let loaded = try store.load()
            if let issue = loaded.issues.first { fail("load after save \(number) reported \(issue)") }
            guard let state = loaded.value, loaded.source == .current else { fail("load after save \(number) found \(loaded.source)") }
            if !state.isSelfConsistent { fail("state \(state.sequence) is not self-consistent") }
        }
        report("done \(saves)")
        exit(0)
    } catch {
        fail("\(error)")
    }
}

extension Result {
    /// Whether this is a success.
    var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}

/// The `--fair` mode's state: small, so encoding it (before the lock is asked for) takes microseconds
/// and a save's call time is its arrival at the lock.
struct FairState: Codable, Sendable {
    var process: Int
    var number: Int
}

/// The `--fair` mode: saves as fast as it can for `seconds`, recording when each save was called and
/// when it returned, then writes the records to `results`.
func runFair(folder: String, seconds: Int, id: Int, lockTimeout: Duration?, results: String, announce: Bool) -> Never {
    do {
        let directory = URL(fileURLWithPath: folder)
        let store = try lockTimeout.map { try StateStore<FairState>(directory: directory, name: "fair", lockTimeout: $0) }
            ?? StateStore<FairState>(directory: directory, name: "fair")
        let end = DispatchTime.now().uptimeNanoseconds + UInt64(seconds) * 1_000_000_000
        var lines: [String] = []
        var number = 0
        while DispatchTime.now().uptimeNanoseconds < end {
            number += 1
            if announce { report("saving \(number)") }
            let called = DispatchTime.now().uptimeNanoseconds
            let saved = Result { () throws(StateStoreError) in try store.save(FairState(process: id, number: number)) }
            let returned = DispatchTime.now().uptimeNanoseconds
            if case .failure(let error) = saved, error.problem != .lockTimeout(waited: store.lockTimeout) { fail("\(error)") }
            lines.append("\(called) \(returned) \(saved.isSuccess ? "ok" : "timeout")")
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: results, atomically: true, encoding: .utf8)
        report("done \(number)")
        exit(0)
    } catch {
        fail("\(error)")
    }
}

let arguments = CommandLine.arguments
if arguments.count == 7 || (arguments.count == 8 && arguments[7] == "--announce"), arguments[1] == "--fair" {
    guard let seconds = Int(arguments[3]), let id = Int(arguments[4]) else {
        fail("usage: StateStoreTorture --fair <folder> <seconds> <id> <lock timeout ms|default> <results file> [--announce]")
    }
    runFair(folder: arguments[2], seconds: seconds, id: id,
            lockTimeout: Int(arguments[5]).map { .milliseconds($0) }, results: arguments[6], announce: arguments.count == 8)
}
if arguments.count == 5, arguments[1] == "--writer" {
    guard let saves = Int(arguments[3]), let id = Int(arguments[4]) else { fail("usage: StateStoreTorture --writer <folder> <saves> <id>") }
    runWriter(folder: arguments[2], saves: saves, id: id)
}
guard arguments.count == 2 || arguments.count == 3 else { fail("usage: StateStoreTorture <folder> [saves]") }
let saves = arguments.count == 3 ? Int(arguments[2]) ?? 0 : Int.max
do {
    let store = try StateStore<TortureState>(directory: URL(fileURLWithPath: arguments[1]), name: "torture")
    let loaded = try store.load()
    if let issue = loaded.issues.first(where: { $0.error.problem != .missing }) { fail("\(issue)") }
    if let state = loaded.value, !state.isSelfConsistent { fail("state \(state.sequence) is not self-consistent") }
    var sequence = loaded.value?.sequence ?? 0
    report("ready \(sequence)")
    for _ in 0..<saves {
        sequence += 1
        report("writing \(sequence)")
        try store.save(TortureState(sequence: sequence))
        report("saved \(sequence)")
    }
} catch {
    fail("\(error)")
}
