// The crash test's child: saves `TortureState`s in a loop until it is killed, reporting each step on
// standard output so the test knows what was durably saved when it killed it.
//
//     StateStoreTorture <folder> [saves]
//     StateStoreTorture --writer <folder> <saves> <id>
//
// Prints `ready N` after loading (N is the sequence number found, 0 for none), then `writing N` before
// and `saved N` after each save, and exits after `saves` saves (default: never). Any problem found is
// printed as `problem …` and the exit status is 1.
//
// With `--writer`, it is one of several processes saving under the same name at once: it saves
// `saves` states numbered from `id` × 1,000,000 + 1, loads after each save (which must return a
// complete state with no issue, though possibly another writer's), and prints `done N` at the end.
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

let arguments = CommandLine.arguments
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
