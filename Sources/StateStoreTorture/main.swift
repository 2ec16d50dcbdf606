// The crash test's child: saves `TortureState`s in a loop until it is killed, reporting each step on
// standard output so the test knows what was durably saved when it killed it.
//
//     StateStoreTorture <folder> [saves]
//
// Prints `ready N` after loading (N is the sequence number found, 0 for none), then `writing N` before
// and `saved N` after each save, and exits after `saves` saves (default: never). Any problem found is
// printed as `problem …` and the exit status is 1.
import BackgroundBudget
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

let arguments = CommandLine.arguments
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
