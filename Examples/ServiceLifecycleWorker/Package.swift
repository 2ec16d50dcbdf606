// swift-tools-version: 6.0
import PackageDescription

// The JobRunner example's jobs as a swift-service-lifecycle `Service`: a package of its own, so that the
// BackgroundBudget library itself stays free of dependencies.
let package = Package(
    name: "ServiceLifecycleWorker",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "BackgroundBudget", path: "../.."),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", exact: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log.git", exact: "1.16.2"),
        // Only for a test: swift-async-algorithms' timers run on the package's virtual clock.
        .package(url: "https://github.com/apple/swift-async-algorithms.git", exact: "1.1.4"),
    ],
    targets: [
        // `Job.swift` and `Worker.swift` are links to the JobRunner example's: the very same jobs.
        .target(name: "JobWorker", dependencies: [
            .product(name: "BudgetClock", package: "BackgroundBudget"),
            .product(name: "BudgetLock", package: "BackgroundBudget"),
            .product(name: "JobBudgets", package: "BackgroundBudget"),
            .product(name: "SavedState", package: "BackgroundBudget"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .executableTarget(name: "ServiceLifecycleWorker", dependencies: ["JobWorker"]),
        .testTarget(name: "JobWorkerTests", dependencies: [
            "JobWorker",
            .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
            .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
            .product(name: "BudgetClock", package: "BackgroundBudget"),
            .product(name: "BudgetTime", package: "BackgroundBudget"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
