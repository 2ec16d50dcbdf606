import BudgetTime
import Foundation
import Testing
import TestSupport
import BackgroundBudgetCore
import BudgetClock

/// The *Trace format* article, read from the source tree, names every event the trace can record,
/// with the ``TraceEvent/Kind`` case behind it, and every value the `reason` and `name` keys take.
@Suite struct TraceFormatArticleTests {
    static let articlePath = "Sources/BackgroundBudgetCore/BackgroundBudgetCore.docc/TraceFormat.md"

    static func article() throws -> String {
        try String(contentsOf: SampleFiles.root.appendingPathComponent(articlePath), encoding: .utf8)
    }

    /// The rows of the article's *Event names* table, as their cells.
    static func eventRows(_ article: String) -> [[String]] {
        let section = article.components(separatedBy: "### Event names").dropFirst().first?
            .components(separatedBy: "\n### ").first ?? ""
        return section.split(separator: "\n").filter { $0.hasPrefix("|") }.map { row in
            row.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    /// One kind of each case: what its entries are called in JSON (the eight callbacks for `callback`).
    static func samples(of tag: TraceEvent.Kind.Tag) -> [TraceEvent.Kind] {
        let task = BackgroundTaskIdentifier(rawValue: 1), at = BudgetInstant.seconds(1)
        return switch tag {
        case .callback: AppCallback.allCases.map { .callback($0) }
        case .sceneCallback: SceneCallback.allCases.map { .sceneCallback($0, scene: "scene-1") }
        case .stateChange: [.stateChange(.background, cause: .pressHome)]
        case .exit: [.exit(.watchdog, code: nil)]
        case .killedMidCallback: [.killedMidCallback(.didEnterBackground)]
        case .killedMidSceneCallback: [.killedMidSceneCallback(.didEnterBackground, scene: "scene-1")]
        case .workDropped: [.workDropped(count: 1)]
        case .backgroundTaskBegan: [.backgroundTaskBegan(task, name: nil)]
        case .backgroundTaskDenied: [.backgroundTaskDenied(name: nil, .allowanceSpent)]
        case .backgroundTaskEnded: [.backgroundTaskEnded(task)]
        case .backgroundTaskEndIgnored: [.backgroundTaskEndIgnored(task, .alreadyEnded)]
        case .allowanceStarted: [.allowanceStarted(expiresAt: at)]
        case .backgroundTimeRemainingRead: [.backgroundTimeRemainingRead(nil)]
        case .expirationHandlerCalled: [.expirationHandlerCalled(task)]
        case .backgroundTaskOpenTooLong: [.backgroundTaskOpenTooLong(task)]
        case .activityStarted: [.activityStarted(.audioPlayback)]
        case .activityStopped: [.activityStopped(.audioPlayback)]
        case .activityDenied: [.activityDenied(.audioPlayback, .modeNotDeclared)]
        case .eventDelivered: [.eventDelivered(.silentPush)]
        case .eventQueued: [.eventQueued(.silentPush)]
        case .eventDropped: [.eventDropped(.silentPush, EventDropReason.allCases[0])]
        case .eventWindowStarted: [.eventWindowStarted(until: at)]
        case .remoteNotificationCompleted: [.remoteNotificationCompleted(.newData)]
        case .voipCallReported: [.voipCallReported]
        case .keepAliveHandlerCalled: [.keepAliveHandlerCalled]
        case .notificationDelivered: [.notificationDelivered(.userDefaults)]
        case .notificationQueued: [.notificationQueued(.userDefaults)]
        case .fetchStarted: [.fetchStarted]
        case .fetchCompleted: [.fetchCompleted(.newData)]
        case .fetchCompletionIgnored: [.fetchCompletionIgnored(.newData)]
        case .fetchSkipped: [.fetchSkipped(FetchSkipReason.allCases[0])]
        case .taskRegistered: [.taskRegistered("id")]
        case .taskRegistrationRejected: [.taskRegistrationRejected("id", TaskRegistrationRejection.allCases[0])]
        case .taskSubmitted: [.taskSubmitted("id")]
        case .taskSubmitRejected: [.taskSubmitRejected("id", TaskSchedulerError.Code.allCases[0])]
        case .taskRequestCancelled: [.taskRequestCancelled("id")]
        case .taskQueued: [.taskQueued("id")]
        case .taskProgress: [.taskProgress("id", completed: 1, total: 2)]
        case .taskStarted: [.taskStarted("id")]
        case .taskDropped: [.taskDropped("id")]
        case .launchHandlerMissing: [.launchHandlerMissing("id")]
        case .taskExpired: [.taskExpired("id", TaskExpiryReason.allCases[0])]
        case .taskCompleted: [.taskCompleted("id", .success)]
        case .taskCompletionIgnored: [.taskCompletionIgnored("id")]
        case .deviceChanged: [.deviceChanged(.lowPowerMode(true))]
        case .fileLockAcquired: [.fileLockAcquired("path")]
        case .fileLockReleased: [.fileLockReleased("path")]
        case .regionMonitoringFailed: [.regionMonitoringFailed("region")]
        case .notificationObserved: [.notificationObserved("UIApplicationDidEnterBackgroundNotification", observers: 1)]
        case .restorationActivityRead: [.restorationActivityRead(activityType: nil, scene: "scene-1")]
        }
    }

    @Test(arguments: TraceEvent.Kind.Tag.allCases)
    func everyKindIsInTheEventTableWithItsName(tag: TraceEvent.Kind.Tag) throws {
        let rows = Self.eventRows(try Self.article())
        #expect(rows.count > 40, "the Event names table was not found")
        for kind in Self.samples(of: tag) {
            #expect(kind.tag == tag)
            let name = TraceEvent(time: .zero, app: "x", kind: kind).eventName
            let row = rows.first { $0.count == 3 && $0[0].contains("`\(name)`") }
            #expect(row != nil, "\(Self.articlePath): no row for the event `\(name)`")
            #expect(row?[1].contains("`\(tag)`") == true, "\(Self.articlePath): the row of `\(name)` does not name its case `\(tag)`")
        }
    }

    @Test func everyTableRowHasAsManyCellsAsItsHeader() throws {
        var columns: Int?
        for line in try Self.article().split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("|") else { columns = nil; continue }
            let cells = line.replacingOccurrences(of: "\\|", with: "").split(separator: "|", omittingEmptySubsequences: false).count - 2
            if let columns { #expect(cells == columns, "\(Self.articlePath): \(line)") } else { columns = cells }
        }
    }

    @Test func everyReasonResultAndSettingIsNamed() throws {
        let article = try Self.article()
        var names: [String] = []
        names += LaunchReason.allCases.map(\.rawValue) + TerminationReason.allCases.map(\.rawValue)
        names += SuspensionReason.allCases.map(\.rawValue) + BackgroundTaskDenial.allCases.map(\.rawValue)
        names += BackgroundTaskEndProblem.allCases.map(\.rawValue) + ActivityDenial.allCases.map(\.rawValue)
        names += EventDropReason.allCases.map(\.rawValue) + FetchSkipReason.allCases.map(\.rawValue)
        names += TaskRegistrationRejection.allCases.map(\.rawValue) + TaskExpiryReason.allCases.map(\.rawValue)
        names += TaskCompletion.allCases.map(\.rawValue) + TaskSchedulerError.Code.allCases.map(\.description)
        names += BackgroundFetchResult.allCases.map(\.rawValue) + ApplicationState.allCases.map(\.rawValue)
        let changes: [DeviceChange] = [.network(true), .externalPower(true), .idle(true), .lowPowerMode(true),
                                       .backgroundAppRefresh(true), .backgroundAppRefreshRestricted(true),
                                       .memoryCapacity(nil), .systemUnderLoad(true), .backgroundGPU(true),
                                       .criticallyLowBattery(true), .reboot]
        names += changes.map(\.name)
        let lifecycle: [LifecycleEvent] = [.launch, .interruptionBegan, .interruptionDismissed, .interruptionAnswered,
                                           .pressHome, .switchAway, .enterForeground, .openScene, .closeScene("s"),
                                           .reclaimScene("s")]
        names += lifecycle.map(\.reason)
        for name in names {
            let named = article.contains("`\(name)`")
            #expect(named, "\(Self.articlePath) does not name `\(name)`")
        }
    }
}
