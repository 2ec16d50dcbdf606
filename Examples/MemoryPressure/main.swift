// MemoryPressure: five apps on a device with 1 GB for apps. As the user moves from app to app, the
// apps left behind are suspended; when a big game opens, suspended apps are purged silently, largest
// first. Notes saved its draft when it went to the background, so when the user comes back to it — a
// cold launch, because it was purged — the draft is restored.
//
//   swift run MemoryPressure            # the story, the purge order and the restored draft
//   swift run MemoryPressure --trace    # the whole trace as NSLog lines
import BackgroundBudget
import Foundation

/// A note the user is writing.
struct Draft: Codable, Sendable, Equatable {
    var text: String
}

/// Notes saves its draft in applicationDidEnterBackground and restores it at launch, as every app
/// should: a suspended app can be purged without a word.
final class NotesDelegate: ApplicationDelegate {
    let store: StateStore<Draft>
    let draft = LockedValue(Draft(text: ""))
    let log = LockedValue<[String]>([])

    init(store: StateStore<Draft>) {
        self.store = store
    }

    func application(_ application: Application, didFinishLaunchingWithOptions options: LaunchOptions) {
        do {
            let loaded = try store.load()
            if let saved = loaded.value {
                draft.withLock { $0 = saved }
                log.withLock { $0.append("Notes restored its draft: \"\(saved.text)\"") }
            } else {
                log.withLock { $0.append("Notes launched with no saved draft") }
            }
        } catch {
            log.withLock { $0.append("Notes could not restore its draft: \(error)") }
        }
    }

    func applicationDidEnterBackground(_ application: Application) {
        do {
            try store.save(draft.withLock { $0 })
            log.withLock { $0.append("Notes saved its draft") }
        } catch {
            log.withLock { $0.append("Notes could not save its draft: \(error)") }
        }
        application.setMemoryFootprint(40_000_000)        // release caches before suspension
    }
}

/// An app that halves its footprint when it goes to the background.
final class ShrinkingDelegate: ApplicationDelegate {
    func applicationDidEnterBackground(_ application: Application) {
        application.setMemoryFootprint(application.memoryFootprint / 2)
    }
}

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("MemoryPressure-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

let clock = VirtualClock()
let system = BackgroundSystem(clock: clock)
system.setMemoryCapacity(1_000_000_000)
func manifest(_ id: String, _ name: String, megabytes: Int) -> AppManifest {
    var manifest = AppManifest(id: AppID(rawValue: id), displayName: name)
    manifest.memoryFootprint = megabytes * 1_000_000
    return manifest
}
let notesDelegate = NotesDelegate(store: try StateStore<Draft>(directory: folder, name: "notes"))
let notes = try system.install(manifest("com.example.notes", "Notes", megabytes: 120), delegate: notesDelegate)
let mail = try system.install(manifest("com.example.mail", "Mail", megabytes: 150), delegate: ShrinkingDelegate())
let maps = try system.install(manifest("com.example.maps", "Maps", megabytes: 300))
let photos = try system.install(manifest("com.example.photos", "Photos", megabytes: 350), delegate: ShrinkingDelegate())
let game = try system.install(manifest("com.example.game", "Game", megabytes: 700))
var story: [String] = []
@MainActor func note(_ text: String) {
    story.append("t=\(formatted(clock.now))s  \(text)  [\(system.memoryInUse / 1_000_000) MB in use]")
}
func formatted(_ instant: BudgetInstant) -> String { String(Int(instant.seconds)) }

// The user writes a note, then moves through four other apps.
try system.open(notes)
notesDelegate.draft.withLock { $0.text = "Buy milk, call Ana about Saturday" }
for app in [mail, maps, photos] {
    clock.advance(by: .seconds(30))
    try system.open(app)
    note("opened \(app.manifest.displayName)")
}
clock.advance(by: .seconds(30))
try system.open(game)
note("opened Game (700 MB): suspended apps are purged, largest first")
clock.advance(by: .seconds(300))
try system.open(notes)
note("back to Notes: a cold launch, because it was purged")

let purges = system.trace.events.filter { $0.eventName == "exit" }
if CommandLine.arguments.contains("--trace") {
    print(system.logLines(), terminator: "")
} else {
    for line in story { print(line) }
    print("")
    print("Purged, in order: " + purges.map { "\(system.application($0.app)?.manifest.displayName ?? $0.app.rawValue) (\($0.reason ?? ""))" }
        .joined(separator: ", "))
    let warned = system.trace.events.filter { $0.callback == .didReceiveMemoryWarning }
    print("Memory warnings, once the suspended apps were not enough: "
        + warned.map { system.application($0.app)?.manifest.displayName ?? $0.app.rawValue }.joined(separator: ", "))
    for line in notesDelegate.log.withLock({ $0 }) { print(line) }
    print("In the app switcher: " + system.appSwitcher.map(\.manifest.displayName).joined(separator: ", "))
}
