// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "BackgroundBudget",
    // Swift's `Duration` and `Clock` begin with these releases; Linux has no minimum.
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "BackgroundBudget", targets: ["BackgroundBudget"]),
        .library(name: "BackgroundBudgetCore", targets: ["BackgroundBudgetCore"]),
        .library(name: "BackgroundBudgetRuntime", targets: ["BackgroundBudgetRuntime"]),
        .library(name: "BudgetClock", targets: ["BudgetClock"]),
        .library(name: "BudgetTime", targets: ["BudgetTime"]),
        .library(name: "BudgetLock", targets: ["BudgetLock"]),
        .library(name: "JobBudgets", targets: ["JobBudgets"]),
        .library(name: "SavedState", targets: ["SavedState"]),
        .library(name: "BackgroundBudgetExplorer", targets: ["BackgroundBudgetExplorer"]),
        .library(name: "BackgroundBudgetScenario", targets: ["BackgroundBudgetScenario"]),
        .library(name: "BackgroundBudgetTestKit", targets: ["BackgroundBudgetTestKit"]),
        .executable(name: "StateLab", targets: ["StateLab"]),
        .executable(name: "AudioPlayer", targets: ["AudioPlayer"]),
        .executable(name: "LocationTracker", targets: ["LocationTracker"]),
        .executable(name: "MemoryPressure", targets: ["MemoryPressure"]),
        .executable(name: "NewsFetcher", targets: ["NewsFetcher"]),
        .executable(name: "JobRunner", targets: ["JobRunner"]),
        .executable(name: "DraftLoss", targets: ["DraftLoss"]),
        .executable(name: "BudgetBench", targets: ["BudgetBench"]),
        .executable(name: "bgbudget", targets: ["bgbudget"]),
    ],
    targets: [
        // Linux's timer slack, behind a C function: `prctl` is variadic, so Swift cannot call it.
        .target(name: "CBudgetClockShims"),
        // Time as values: `BudgetInstant` and the seeded generator; no clock, no lock, no imports.
        .target(name: "BudgetTime"),
        // The package's one lock, on the platform's own primitive.
        .target(name: "BudgetLock"),
        .target(name: "BudgetClock", dependencies: ["BudgetTime", "BudgetLock", "CBudgetClockShims"]),
        .target(name: "JobBudgets", dependencies: ["BudgetClock", "BudgetTime", "BudgetLock"]),
        .target(name: "SavedState"),
        // The pure model: values in, values out; no Foundation, Dispatch, locks or closures.
        .target(name: "BackgroundBudgetCore", dependencies: ["BudgetTime"]),
        // The runtime shell: the core's effects on a clock, with delegates, queues and the lock.
        .target(name: "BackgroundBudgetRuntime", dependencies: ["BackgroundBudgetCore", "BudgetClock", "BudgetTime", "BudgetLock"]),
        // The umbrella: `import BackgroundBudget` brings the runtime, the clocks, job budgets and saved state.
        .target(name: "BackgroundBudget", dependencies: ["BackgroundBudgetRuntime", "BackgroundBudgetCore", "BudgetClock", "BudgetTime", "BudgetLock", "JobBudgets", "SavedState"]),
        // The scenario vocabulary (actions, apps' behaviours, the file format's parser) and the explorer
        // that searches sequences of it; no command line, no SVG.
        .target(name: "BackgroundBudgetExplorer", dependencies: ["BackgroundBudgetRuntime", "BackgroundBudgetCore", "BudgetClock", "BudgetTime", "BudgetLock"]),
        // Running and drawing scenarios (the SVG timeline) and the `bgbudget` command line.
        .target(name: "BackgroundBudgetScenario", dependencies: ["BackgroundBudgetExplorer", "BackgroundBudgetRuntime", "BackgroundBudgetCore", "BudgetClock", "BudgetTime", "BudgetLock"]),
        // What policy tests need: scripted delegates, typed trace expectations, a pending-work check, and
        // the explorer with Swift Testing issues (without the command line or the SVG timeline).
        .target(name: "BackgroundBudgetTestKit", dependencies: ["BackgroundBudgetExplorer", "BackgroundBudgetRuntime", "BackgroundBudgetCore", "BudgetClock", "BudgetTime", "BudgetLock"]),
        .executableTarget(
            name: "StateLab",
            dependencies: ["BackgroundBudget"],
            path: "Examples/StateLab",
            exclude: ["README.md"]
        ),
        .executableTarget(
            name: "AudioPlayer",
            dependencies: ["BackgroundBudget"],
            path: "Examples/AudioPlayer",
            exclude: ["README.md"]
        ),
        .executableTarget(
            name: "LocationTracker",
            dependencies: ["BackgroundBudget"],
            path: "Examples/LocationTracker",
            exclude: ["README.md"]
        ),
        .executableTarget(
            name: "MemoryPressure",
            dependencies: ["BackgroundBudget"],
            path: "Examples/MemoryPressure",
            exclude: ["README.md"]
        ),
        .executableTarget(
            name: "NewsFetcher",
            dependencies: ["BackgroundBudget", "BackgroundBudgetScenario"],
            path: "Examples/NewsFetcher",
            exclude: ["README.md"]
        ),
        .executableTarget(
            name: "JobRunner",
            dependencies: ["JobBudgets", "SavedState", "BudgetClock", "BudgetLock"],
            path: "Examples/JobRunner",
            exclude: ["README.md", "jobs.jsonl", "kubernetes.yaml"]
        ),
        .executableTarget(
            name: "DraftLoss",
            dependencies: ["BackgroundBudget", "BackgroundBudgetScenario", "BackgroundBudgetExplorer"],
            path: "Examples/DraftLoss",
            exclude: ["README.md"]
        ),
        .executableTarget(name: "BudgetBench", dependencies: ["BackgroundBudget", "BackgroundBudgetScenario", "BackgroundBudgetExplorer"]),
        .executableTarget(name: "bgbudget", dependencies: ["BackgroundBudgetScenario"]),
        // The child process the crash test kills while it saves; the tests find it next to their bundle.
        .executableTarget(name: "StateStoreTorture", dependencies: ["SavedState"]),
        // Helpers the test targets share: long-suite switches, tags, child processes, a thread-safe log.
        .target(name: "TestSupport", dependencies: ["BudgetClock", "BudgetTime", "BudgetLock"], path: "Tests/TestSupport"),
        // One test target per library module, named after it: Tests/<Module>Tests tests Sources/<Module>
        // (the umbrella's target holds the checks of the package as a whole). A module's test target
        // depends on the module, on what its tests use as tools, and on an executable only if it runs it
        // (bgbudget, StateStoreTorture): never on an example, a fuzz harness or the benchmark.
        // `ModuleBoundaryTests` keeps it so.
        .testTarget(name: "BudgetTimeTests", dependencies: ["BudgetTime"]),
        .testTarget(name: "BudgetLockTests", dependencies: ["BudgetLock"]),
        .testTarget(name: "BudgetClockTests", dependencies: ["BudgetClock", "BudgetTime", "BudgetLock", "TestSupport"]),
        .testTarget(name: "JobBudgetsTests", dependencies: ["JobBudgets", "BudgetClock", "BudgetTime", "BudgetLock", "TestSupport"]),
        .testTarget(name: "SavedStateTests", dependencies: ["SavedState", "BudgetClock", "BudgetLock", "StateStoreTorture", "TestSupport"]),
        .testTarget(name: "BackgroundBudgetCoreTests", dependencies: ["BackgroundBudgetCore", "BudgetClock", "BudgetTime"]),
        .testTarget(name: "BackgroundBudgetRuntimeTests", dependencies: [
            "BackgroundBudgetRuntime", "BackgroundBudgetCore", "BudgetClock", "BudgetTime", "BackgroundBudget", "JobBudgets", "SavedState",
            "BackgroundBudgetExplorer", "BackgroundBudgetScenario", "BackgroundBudgetTestKit", "TestSupport",
        ]),
        .testTarget(name: "BackgroundBudgetTests", dependencies: ["BackgroundBudget", "TestSupport"]),
        .testTarget(name: "BackgroundBudgetExplorerTests", dependencies: [
            "BackgroundBudgetExplorer", "BackgroundBudgetCore", "BudgetClock", "BudgetTime", "BackgroundBudget", "BackgroundBudgetScenario",
            "TestSupport",
        ]),
        .testTarget(name: "BackgroundBudgetScenarioTests", dependencies: [
            "BackgroundBudgetScenario", "BackgroundBudgetExplorer", "BackgroundBudgetCore", "BudgetClock", "BudgetTime", "BackgroundBudget",
            "TestSupport", "bgbudget",
        ]),
        .testTarget(name: "BackgroundBudgetTestKitTests", dependencies: [
            "BackgroundBudgetTestKit", "BackgroundBudget", "BackgroundBudgetExplorer", "BackgroundBudgetCore", "BudgetClock",
            "BackgroundBudgetScenario", "TestSupport",
        ]),
        // The tests of the package's programs, in a target of their own so that no module's test target
        // depends on a program: the example programs' output against Tests/ProgramTests/ExpectedTraces
        // (read from the source tree, hence excluded), JobRunner end to end, and the fuzz harnesses'
        // seed corpora replayed in-process. The programs are dependencies so that they are built before
        // these tests run them. (`swift test` builds every target of the package before it tests, the
        // examples, the harnesses and BudgetBench included, whatever the test targets depend on.)
        .testTarget(name: "ProgramTests", dependencies: [
            "BackgroundBudget", "BackgroundBudgetScenario", "BackgroundBudgetExplorer", "TestSupport",
            "StateLab", "AudioPlayer", "LocationTracker", "MemoryPressure", "NewsFetcher", "DraftLoss", "JobRunner", "bgbudget",
            "FuzzSupport", "FuzzScenario", "FuzzInfoPlist", "FuzzStateFrame", "FuzzExploreArguments",
        ], exclude: ["ExpectedTraces"]),
        // Fuzz harnesses (Tests/Fuzz/README.md): each replays a corpus in an ordinary build
        // (`swift run FuzzScenario Tests/Fuzz/Corpus/scenario`) and is a libFuzzer target when built by
        // `.ci/fuzz` with `-DFUZZING -sanitize=fuzzer,address`.
        .target(name: "FuzzSupport", path: "Tests/Fuzz/Support"),
        .executableTarget(name: "FuzzScenario", dependencies: ["BackgroundBudget", "BackgroundBudgetScenario", "BackgroundBudgetExplorer", "FuzzSupport"], path: "Tests/Fuzz/FuzzScenario"),
        .executableTarget(name: "FuzzInfoPlist", dependencies: ["BackgroundBudget", "FuzzSupport"], path: "Tests/Fuzz/FuzzInfoPlist"),
        .executableTarget(name: "FuzzStateFrame", dependencies: ["SavedState", "FuzzSupport"], path: "Tests/Fuzz/FuzzStateFrame"),
        .executableTarget(name: "FuzzExploreArguments", dependencies: ["BackgroundBudgetScenario", "BackgroundBudgetExplorer", "FuzzSupport"],
                          path: "Tests/Fuzz/FuzzExploreArguments"),
    ],
    swiftLanguageModes: [.v6]
)
