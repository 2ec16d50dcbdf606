// LocationTracker: standard location updates keep the app running while a walk is recorded; after the
// system purges it, a significant location change relaunches it straight into the background, where it
// gets a short window to handle the event. Even after the user swipes it away, location events still
// relaunch it (iOS 8 and later); a silent push would not.
//
//   swift run LocationTracker            # NSLog-style trace with explanations
//   swift run LocationTracker --jsonl    # the trace as JSON Lines
import BackgroundBudget

/// Records where each location event found the app.
final class TrackerDelegate: ApplicationDelegate {
    func application(_ application: Application, didFinishLaunchingWithOptions options: LaunchOptions) {
        if options.backgroundLaunchReason == .location {
            // Relaunched for a location event: resume monitoring as Core Location apps do.
            application.startMonitoringSignificantLocationChanges()
        }
    }

    func application(_ application: Application, didReceive event: BackgroundEvent) {
        application.simulateWork(for: .milliseconds(800))     // store the new location
    }
}

let clock = VirtualClock()
let system = BackgroundSystem(clock: clock)
let tracker = try system.install(
    AppManifest(id: "com.example.tracker", displayName: "Tracker", backgroundModes: [.location, .remoteNotification]),
    delegate: TrackerDelegate())
var notes: [String] = []
@MainActor func note() { notes.append("t=\(clock.now.seconds)s  \(system.explain(tracker))") }

// The user starts recording a walk: standard updates keep the app running in the background.
try system.open(tracker)
try tracker.startUpdatingLocation()
tracker.startMonitoringSignificantLocationChanges()
clock.advance(by: .seconds(5))
try system.pressHome()
clock.advance(by: .seconds(1_200))
note()

// The walk ends: updates stop and the app is suspended; later the system purges it for memory.
tracker.stopUpdatingLocation()
clock.advance(by: .seconds(600))
try system.purge(tracker)
note()

// A significant change relaunches it into the background, with a short window to handle it.
clock.advance(by: .seconds(900))
system.deliver(.significantLocationChange, to: tracker)
note()
clock.advance(by: .seconds(10))
note()

// The user swipes it away. Location events still relaunch it; a silent push does not.
try system.killFromAppSwitcher(tracker)
clock.advance(by: .seconds(60))
notes.append("t=\(clock.now.seconds)s  silent push: \(system.deliver(.silentPush, to: tracker))")
notes.append("t=\(clock.now.seconds)s  significant change: \(system.deliver(.significantLocationChange, to: tracker))")
clock.advance(by: .seconds(10))
note()

if CommandLine.arguments.contains("--jsonl") {
    print(system.trace.jsonLines(), terminator: "")
} else {
    print(system.logLines(), terminator: "")
    print("")
    for line in notes { print(line) }
}
