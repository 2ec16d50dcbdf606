// `swift run ServiceLifecycleWorker <jobs.jsonl | queue-folder> <state-folder>`: the JobRunner example's
// jobs as a Service in a ServiceGroup. SIGTERM or SIGINT starts the graceful shutdown.
import Foundation
import JobWorker
import Logging
import ServiceLifecycle

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: ServiceLifecycleWorker <jobs.jsonl | queue-folder> <state-folder>\n".utf8))
    exit(2)
}
let logger = Logger(label: "ServiceLifecycleWorker")
let service = try JobService(jobs: arguments[1], state: URL(fileURLWithPath: arguments[2]), logger: logger)
let group = ServiceGroup(configuration: .init(
    services: [.init(service: service, successTerminationBehavior: .gracefullyShutdownGroup)],
    gracefulShutdownSignals: [.sigterm, .sigint],
    logger: logger))
try await group.run()
