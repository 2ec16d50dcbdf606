// State Lab: the classic walk-through of an app's lifecycle, replayed on a virtual clock.
//
//   swift run StateLab                  # NSLog-style lines, as the walk-through prints them
//   swift run StateLab --callbacks-only # only the delegate callbacks, as the app's own log shows them
//   swift run StateLab --jsonl          # the same trace as JSON Lines
import BackgroundBudget
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

let arguments = Set(CommandLine.arguments.dropFirst())
let known: Set = ["--callbacks-only", "--jsonl", "--help", "-h"]
if !arguments.isSubset(of: known) || arguments.contains("--help") || arguments.contains("-h") {
    print("usage: StateLab [--callbacks-only | --jsonl]")
    exit(arguments.isSubset(of: known) ? 0 : 2)
}

let clock = VirtualClock()
let system = BackgroundSystem(clock: clock)
let stateLab = try system.install(AppManifest(id: "com.example.StateLab", displayName: "State Lab"))

// The user launches the app.
try system.open(stateLab)
// An SMS arrives; the user dismisses it.
clock.advance(by: .milliseconds(4_210))
try system.beginInterruption()
clock.advance(by: .milliseconds(2_530))
try system.dismissInterruption()
// Another SMS arrives, and this time the user replies: the flurry.
clock.advance(by: .milliseconds(6_120))
try system.beginInterruption()
clock.advance(by: .milliseconds(1_870))
try system.answerInterruption()
// The user comes back to State Lab.
clock.advance(by: .milliseconds(24_460))
try system.open(stateLab)

if arguments.contains("--jsonl") {
    print(system.trace.jsonLines(), terminator: "")
} else {
    print(system.logLines(includesSystemEvents: !arguments.contains("--callbacks-only")), terminator: "")
}
