// AudioPlayer: an app that declares the `audio` background mode keeps running while it plays, and is
// suspended the moment playback pauses once no background task holds it. A second app plays without
// declaring the mode: the system refuses to keep it running.
//
//   swift run AudioPlayer            # NSLog-style trace with explanations
//   swift run AudioPlayer --jsonl    # the trace as JSON Lines
import BackgroundBudget

/// Saves the playback position when the app leaves, inside a short background task.
final class PlayerDelegate: ApplicationDelegate {
    func applicationDidEnterBackground(_ application: Application) {
        let task = application.beginBackgroundTask(withName: "save position")
        application.simulateWork(for: .milliseconds(300))
        application.endBackgroundTask(task)
    }
}

let clock = VirtualClock()
let system = BackgroundSystem(clock: clock)
let player = try system.install(AppManifest(id: "com.example.player", displayName: "Player", backgroundModes: [.audio]),
                                delegate: PlayerDelegate())
let podcasts = try system.install(AppManifest(id: "com.example.podcasts", displayName: "Podcasts"))
var notes: [String] = []
@MainActor func note(_ app: Application) { notes.append("t=\(clock.now.seconds)s  \(system.explain(app))") }

// The user opens Player and starts a song, then goes to the home screen: the music goes on.
try system.open(player)
clock.advance(by: .seconds(2))
try player.startPlayingAudio()
clock.advance(by: .seconds(8))
try system.pressHome()
clock.advance(by: .seconds(120))
note(player)

// Two minutes later the user pauses from the lock screen: nothing else holds the app, so it is
// suspended at once.
player.stopPlayingAudio()
note(player)

// Podcasts plays too, but does not declare the audio mode: the system will not keep it running.
try system.open(podcasts)
do {
    try podcasts.startPlayingAudio()
} catch {
    notes.append("t=\(clock.now.seconds)s  Podcasts cannot play in the background: \(error)")
}
clock.advance(by: .seconds(5))
try system.pressHome()
note(podcasts)

if CommandLine.arguments.contains("--jsonl") {
    print(system.trace.jsonLines(), terminator: "")
} else {
    print(system.logLines(), terminator: "")
    print("")
    for line in notes { print(line) }
}
