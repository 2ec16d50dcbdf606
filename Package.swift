// swift-tools-version: 6.0
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
        .target(name: "JobBudgets", dependencies: ["BudgetClock"]),
        .target(name: "SavedState"),
        // The pure model: values in, values out; no Foundation, Dispatch, locks or closures.
        .target(name: "BackgroundBudgetCore", dependencies: ["BudgetTime"]),
        // The runtime shell: the core's effects on a clock, with delegates, queues and the lock.
        .target(name: "BackgroundBudgetRuntime", dependencies: ["BackgroundBudgetCore", "BudgetClock"]),
        // The umbrella: `import BackgroundBudget` brings the runtime, the clocks, job budgets and saved state.
        .target(name: "BackgroundBudget", dependencies: ["BackgroundBudgetRuntime", "BackgroundBudgetCore", "BudgetClock", "JobBudgets", "SavedState"]),
        // The scenario vocabulary (actions, apps' behaviours, the file format's parser) and the explorer
        // that searches sequences of it; no command line, no SVG.
        .target(name: "BackgroundBudgetExplorer", dependencies: ["BackgroundBudgetRuntime"]),
        // Running and drawing scenarios (the SVG timeline) and the `bgbudget` command line.
        .target(name: "BackgroundBudgetScenario", dependencies: ["BackgroundBudget", "BackgroundBudgetExplorer"]),
        // What policy tests need: scripted delegates, typed trace expectations, a pending-work check, and
        // the explorer with Swift Testing issues (without the command line or the SVG timeline).
        .target(name: "BackgroundBudgetTestKit", dependencies: ["BackgroundBudget", "BackgroundBudgetExplorer"]),
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
            dependencies: ["JobBudgets", "SavedState"],
            path: "Examples/JobRunner",
            exclude: ["README.md", "jobs.jsonl", "kubernetes.yaml"]
        ),
        .executableTarget(
            name: "DraftLoss",
            dependencies: ["BackgroundBudget", "BackgroundBudgetScenario"],
            path: "Examples/DraftLoss",
            exclude: ["README.md"]
        ),
        .executableTarget(name: "BudgetBench", dependencies: ["BackgroundBudget", "BackgroundBudgetScenario"]),
        .executableTarget(name: "bgbudget", dependencies: ["BackgroundBudgetScenario"]),
        // The child process the crash test kills while it saves; the tests find it next to their bundle.
        .executableTarget(name: "StateStoreTorture", dependencies: ["SavedState"]),
        // Helpers the test targets share: long-suite switches, tags, child processes, a thread-safe log.
        .target(name: "TestSupport", dependencies: ["BudgetClock"], path: "Tests/TestSupport"),
        .testTarget(name: "BudgetClockTests", dependencies: ["BudgetClock", "TestSupport"]),
        // JobRunner is a dependency so that it is built before the end-to-end test runs it.
        .testTarget(name: "JobBudgetsTests", dependencies: ["JobBudgets", "TestSupport", "JobRunner"]),
        .testTarget(name: "SavedStateTests", dependencies: ["SavedState", "BudgetClock", "StateStoreTorture", "TestSupport"]),
        .testTarget(name: "BackgroundBudgetCoreTests", dependencies: ["BackgroundBudgetCore", "BudgetClock", "TestSupport"]),
        .testTarget(name: "BackgroundBudgetTests", dependencies: [
            "BackgroundBudget", "BackgroundBudgetRuntime", "BackgroundBudgetTestKit", "BackgroundBudgetExplorer", "BackgroundBudgetScenario",
            "TestSupport",
        ]),
        // The example executables are dependencies so that they are built before the tests, which run
        // them and compare their output with Tests/BackgroundBudgetScenarioTests/ExpectedTraces (read
        // from the source tree, hence excluded from the target).
        .testTarget(name: "BackgroundBudgetScenarioTests", dependencies: [
            "BackgroundBudgetScenario", "BackgroundBudgetExplorer", "TestSupport", "bgbudget", "FuzzScenario", "FuzzInfoPlist", "FuzzStateFrame", "FuzzExploreArguments",
            "FuzzSupport",
            "StateLab", "AudioPlayer", "LocationTracker", "MemoryPressure", "NewsFetcher", "DraftLoss",
        ], exclude: ["ExpectedTraces"]),
        .testTarget(name: "BackgroundBudgetTestKitTests", dependencies: ["BackgroundBudgetTestKit", "BackgroundBudgetScenario", "TestSupport"]),
        // Fuzz harnesses (Tests/Fuzz/README.md): each replays a corpus in an ordinary build
        // (`swift run FuzzScenario Tests/Fuzz/Corpus/scenario`) and is a libFuzzer target when built by
        // `.ci/fuzz` with `-DFUZZING -sanitize=fuzzer,address`.
        .target(name: "FuzzSupport", path: "Tests/Fuzz/Support"),
        .executableTarget(name: "FuzzScenario", dependencies: ["BackgroundBudgetScenario", "BackgroundBudgetExplorer", "FuzzSupport"], path: "Tests/Fuzz/FuzzScenario"),
        .executableTarget(name: "FuzzInfoPlist", dependencies: ["BackgroundBudget", "FuzzSupport"], path: "Tests/Fuzz/FuzzInfoPlist"),
        .executableTarget(name: "FuzzStateFrame", dependencies: ["SavedState", "FuzzSupport"], path: "Tests/Fuzz/FuzzStateFrame"),
        .executableTarget(name: "FuzzExploreArguments", dependencies: ["BackgroundBudgetScenario", "FuzzSupport"],
                          path: "Tests/Fuzz/FuzzExploreArguments"),
    ],
    swiftLanguageModes: [.v6]
)
