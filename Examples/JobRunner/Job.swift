import BudgetClock
import Foundation
import JobBudgets
import SavedState

/// One job: `steps` steps of `stepMilliseconds` each, folding the step numbers into a checksum, so the
/// result proves every step ran exactly once, in order, across checkpoints and restarts.
struct Job: Codable, Sendable {
    var id: String
    var steps: Int
    /// How long a step takes; 20 ms if the job does not say.
    var stepMilliseconds: Int?
    /// The step at which the job fails with ``JobFailure`` (to try out failures); none if not given.
    var failAtStep: Int?

    /// The longest step a job may have: a day, far inside what the clock's deadlines can hold.
    static let maximumStepMilliseconds = 86_400_000

    /// The length of one step.
    var step: Duration { .milliseconds(stepMilliseconds ?? 20) }

    /// What the job would return if it ran in one go (the end-to-end test checks it).
    static func expectedResult(steps: Int) -> Int {
        (0..<steps).reduce(0, fold)
    }

    /// One step of the checksum.
    static func fold(_ accumulator: Int, _ step: Int) -> Int {
        (accumulator &* 31 &+ step &+ 1) % 1_000_000_007
    }
}

/// A job's saved progress: the next step and the checksum so far; `result` once it is done.
struct Checkpoint: Codable, Sendable {
    var nextStep = 0
    var accumulator = 0
    var result: Int?
}

/// How one attempt at a job ended.
enum Attempt: Sendable {
    /// The job finished; its result is saved.
    case done(Int)
    /// The warning came; progress up to `step` is saved.
    case checkpointed(step: Int)
}

/// The failure a job with ``Job/failAtStep`` throws at that step.
struct JobFailure: Error, CustomStringConvertible {
    var step: Int
    var description: String { "failed at step \(step), as its failAtStep says" }
}

/// A line of the jobs file or a file of the queue folder that is not a job.
struct JobFileError: Error, CustomStringConvertible {
    var description: String
}

/// Reads the jobs: a JSON Lines file (one job per line) or a queue folder (one `*.json` job per file,
/// in name order). Every line or file is checked before any job runs.
func loadJobs(from path: String) throws -> [Job] {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
        throw JobFileError(description: "\(path): no such file or folder")
    }
    let decoder = JSONDecoder()
    func decode(_ data: Data, _ place: String) throws -> Job {
        do {
            let job = try decoder.decode(Job.self, from: data)
            guard job.steps > 0, (0...Job.maximumStepMilliseconds).contains(job.stepMilliseconds ?? 0),
                  (0..<job.steps).contains(job.failAtStep ?? 0), !job.id.isEmpty, !job.id.contains("/") else {
                throw JobFileError(description: "\(place): a job needs an id without \"/\", steps > 0, stepMilliseconds "
                                   + "from 0 to \(Job.maximumStepMilliseconds) and failAtStep from 0 to steps - 1")
            }
            return job
        } catch let error as JobFileError {
            throw error
        } catch {
            throw JobFileError(description: "\(place): not a job (\(error))")
        }
    }
    var jobs: [Job] = []
    if isFolder.boolValue {
        let names = try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".json") }.sorted()
        for name in names {
            let file = (path as NSString).appendingPathComponent(name)
            jobs.append(try decode(try Data(contentsOf: URL(fileURLWithPath: file)), file))
        }
    } else {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            jobs.append(try decode(Data(line.utf8), "\(path):\(index + 1)"))
        }
    }
    let ids = jobs.map(\.id)
    if let duplicate = ids.first(where: { id in ids.filter { $0 == id }.count > 1 }) {
        throw JobFileError(description: "\(path): the id \"\(duplicate)\" is used twice")
    }
    return jobs
}

/// Runs one attempt at a job from its checkpoint, under the budget `task`: a step at a time, saving a
/// checkpoint and returning as soon as the warning has come. The hard stop cancels a step's sleep; the
/// job then ends with `CancellationError` and its last checkpoint stands.
func runAttempt(of job: Job, from checkpoint: Checkpoint, store: StateStore<Checkpoint>, clock: DispatchClock,
                task: BackgroundTask) async throws -> Attempt {
    var progress = checkpoint
    while progress.nextStep < job.steps {
        if progress.nextStep == job.failAtStep { throw JobFailure(step: progress.nextStep) }
        if task.isWarned {
            _ = try store.save(progress)
            return .checkpointed(step: progress.nextStep)
        }
        try await clock.sleep(for: job.step)
        progress.accumulator = Job.fold(progress.accumulator, progress.nextStep)
        progress.nextStep += 1
    }
    progress.result = progress.accumulator
    _ = try store.save(progress)
    return .done(progress.accumulator)
}
