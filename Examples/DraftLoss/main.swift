// DraftLoss: a notes app with a planted bug, and the explorer that finds the events that lose the draft.
//
//   swift run DraftLoss           # find, shrink and print the counterexample; then check the fix
//
// Notes keeps the line the user is typing in memory and writes it to disk only in
// applicationWillTerminate. iOS does not call that when it purges a suspended app, so a draft typed,
// then left with Home, is lost as soon as the system needs the memory. The explorer finds this from
// random sequences of gestures and system events and shrinks it to three events; saving in
// applicationDidEnterBackground as well fixes it, and the explorer then finds nothing.
import BackgroundBudgetExplorer
import BackgroundBudget
import BackgroundBudgetScenario

/// The app: a draft in memory and one on disk, in lines typed.
final class NotesDelegate: ApplicationDelegate, ExplorerStateDescribing {
    struct Draft {
        var inMemory = 0
        var onDisk = 0
    }

    /// Whether the app also saves when it goes to the background (the fix).
    let savesInBackground: Bool
    private let draft = LockedValue(Draft())

    init(savesInBackground: Bool) {
        self.savesInBackground = savesInBackground
    }

    /// Lines typed and not on disk.
    var unsavedLines: Int {
        draft.withLock { $0.inMemory - $0.onDisk }
    }

    var explorerStateDescription: String {
        unsavedLines > 0 ? "unsaved" : "saved"
    }

    func application(_ application: Application, willFinishLaunchingWithOptions options: LaunchOptions) {
        draft.withLock { $0.inMemory = $0.onDisk }   // a new process starts from what is on disk
    }

    func applicationDidBecomeActive(_ application: Application) {
        draft.withLock { $0.inMemory += 1 }          // the user types a line
    }

    func applicationDidEnterBackground(_ application: Application) {
        if savesInBackground { save() }
    }

    func applicationWillTerminate(_ application: Application) {
        save()                                       // the planted bug: the only other save
    }

    private func save() {
        draft.withLock { $0.onDisk = $0.inMemory }
    }
}

let notes: AppID = "com.example.notes"
let scenario = """
    {"description": "Notes, with its delegate in Swift.",
     "apps": [{"id": "com.example.notes", "displayName": "Notes"}],
     "events": []}
    """

/// The draft is on disk whenever the app's process is not running.
let draftSurvives = ExplorerInvariant("draftSurvives") { seen in
    guard seen.application(notes)?.applicationState == .notRunning,
          let editor = seen.delegate(of: notes) as? NotesDelegate, editor.unsavedLines > 0 else { return nil }
    return "the process ended with \(editor.unsavedLines) typed line\(editor.unsavedLines == 1 ? "" : "s") not on disk"
}

func explorer(savesInBackground: Bool) throws -> Explorer {
    let target = try ExplorerTarget(json: scenario, delegates: [notes: { NotesDelegate(savesInBackground: savesInBackground) }])
    // A reboot while the user types loses what no callback gave the app a chance to save: left out.
    let menu = try ExplorerMenu.standard(for: [notes]).weighted([("reboot", 0)])
    return try Explorer(target: target, invariants: [draftSurvives] + ExplorerInvariant.builtIn, menu: menu)
}

let buggy = try explorer(savesInBackground: false)
print("Notes saves its draft only in applicationWillTerminate.")
let report = buggy.randomWalks(seed: 1, sequences: 10_000)
print(report)
if let failure = report.failures.first {
    print("As a scenario file (bgbudget run replays the events; here the app's code is the Swift delegate):")
    print(failure.scenarioFile)
}

let seeds = 20
var shrunk: Set<[ExplorerEvent]> = []
for seed in 1...UInt64(seeds) {
    if let failure = buggy.randomWalks(seed: seed, sequences: 10_000).failures.first { shrunk.insert(failure.events) }
}
print("Seeds 1 to \(seeds): \(shrunk.isEmpty ? "no failure" : "every failure shrank to") "
      + shrunk.map { $0.map(\.description).joined(separator: ", ") }.sorted().joined(separator: " | "))

print("\nThe fix: save in applicationDidEnterBackground too.")
let fixed = try explorer(savesInBackground: true)
print(fixed.randomWalks(seed: 1, sequences: 500), terminator: "")
print(fixed.exhaustive(depth: 3), terminator: "")
