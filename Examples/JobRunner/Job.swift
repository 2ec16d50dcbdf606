import BudgetClock
import Foundation
import JobBudgets
import SavedState

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

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

/// A jobs path, a line of a jobs file or a file of a queue folder that is not a job: one line naming
/// the path (and line) and saying what it is and what was expected.
struct JobFileError: Error, CustomStringConvertible {
    var description: String
}

/// Reads the jobs: a JSON Lines file (one job per line) or a queue folder (one `*.json` job per file,
/// in name order). Every line or file is checked before any job runs; see ``JobsInput`` for what is
/// refused, and how.
func loadJobs(from path: String) throws -> [Job] {
    let decoder = JSONDecoder()
    /// One job, from the bytes of a line or a file.
    func decode(_ bytes: Data, _ place: String) throws(JobFileError) -> Job {
        guard JobsInput.isUTF8(bytes) else {
            throw JobFileError(description: "\(place): not UTF-8 text; expected a job in JSON, in UTF-8")
        }
        let job: Job
        do {
            job = try decoder.decode(Job.self, from: bytes)
        } catch {
            throw JobFileError(description: "\(place): not a job (\(error))")
        }
        for scalar in job.id.unicodeScalars {
            guard let what = JobsInput.lineBreaking(scalar) else { continue }
            throw JobFileError(description: "\(place): the id \(JobsInput.quoted(job.id)) holds \(JobsInput.name(scalar)), "
                               + "\(what); expected an id without control characters or line breaks (it is printed in "
                               + "lines of output)")
        }
        guard job.steps > 0, (0...Job.maximumStepMilliseconds).contains(job.stepMilliseconds ?? 0),
              (0..<job.steps).contains(job.failAtStep ?? 0), !job.id.isEmpty, !job.id.contains("/") else {
            throw JobFileError(description: "\(place): a job needs an id without \"/\", steps > 0, stepMilliseconds "
                               + "from 0 to \(Job.maximumStepMilliseconds) and failAtStep from 0 to steps - 1")
        }
        return job
    }
    var jobs: [Job] = []
    switch try JobsInput.contents(path, allowing: .jobsFileOrFolder) {
    case .folder(let names):
        for name in names {
            let file = (path as NSString).appendingPathComponent(name)
            // A job file is a regular file: `contents` refuses anything else, a folder included.
            guard case .file(let bytes) = try JobsInput.contents(file, allowing: .jobFile) else { continue }
            jobs.append(try decode(bytes, file))
        }
    case .file(let bytes):
        for (index, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated()
        where !String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            jobs.append(try decode(Data(line), "\(path):\(index + 1)"))
        }
    }
    var seen = Set<String>()
    if let duplicate = jobs.first(where: { !seen.insert($0.id).inserted }) {
        throw JobFileError(description: "\(path): the id \"\(duplicate.id)\" is used twice")
    }
    return jobs
}

/// Reading a jobs path without trusting it: the type of what is there is checked before it is opened
/// (a FIFO would wait for a writer, a device could have no end), and it is opened without blocking
/// and checked again; a file is read up to ``maximumBytes`` and no further; a line or file that is not
/// UTF-8, or an id with a character that would break a line of output, is refused. Every refusal is one
/// line: the path, what it is, and what was expected.
enum JobsInput {
    /// The most bytes a jobs file, or one file of a queue folder, may hold: 16 MiB, some hundreds of
    /// thousands of jobs. Nothing past it is read.
    static let maximumBytes = 16 * 1024 * 1024

    /// What a path is read as.
    enum Expected {
        /// The jobs path on the command line: a JSON Lines file or a queue folder.
        case jobsFileOrFolder
        /// One `*.json` file of a queue folder.
        case jobFile

        /// The end of a refusal's message.
        var text: String {
            switch self {
            case .jobsFileOrFolder:
                "expected a jobs file (a regular file, one JSON job a line) or a queue folder (one *.json job a file)"
            case .jobFile: "expected a job file (a regular file holding one JSON job)"
            }
        }

        /// The file it names, for the size bound.
        var file: String {
            switch self {
            case .jobsFileOrFolder: "a jobs file"
            case .jobFile: "a job file"
            }
        }
    }

    /// What a path held.
    enum Contents {
        /// A regular file's bytes, all of them.
        case file(Data)
        /// A folder's `*.json` names, sorted.
        case folder([String])
    }

    /// Reads `path` as `expected` says: a regular file (and, for the jobs path, a folder).
    /// - Throws: A ``JobFileError`` naming the path, what it is and what was expected.
    static func contents(_ path: String, allowing expected: Expected) throws(JobFileError) -> Contents {
        func refuse(_ problem: String) -> JobFileError {
            JobFileError(description: "\(path): \(problem); \(expected.text)")
        }
        var info = stat()
        guard stat(path, &info) == 0 else { throw refuse(describe(errno)) }
        let folderAllowed = expected == .jobsFileOrFolder
        let type = info.st_mode & S_IFMT
        guard type == S_IFREG || (type == S_IFDIR && folderAllowed) else { throw refuse(kind(type)) }
        // Not blocking: if a FIFO has taken the file's place since `stat`, the open does not wait for a
        // writer; `fstat` then refuses it. No controlling terminal either, should it be one.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { throw refuse(describe(errno)) }
        guard fstat(descriptor, &info) == 0 else {
            let problem = errno
            close(descriptor)
            throw refuse(describe(problem))
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR where folderAllowed:
            guard let folder = fdopendir(descriptor) else {
                let problem = errno
                close(descriptor)
                throw refuse("cannot be listed (\(describe(problem)))")
            }
            defer { closedir(folder) }
            var names: [String] = []
            while true {
                errno = 0
                guard let entry = readdir(folder) else {
                    if errno != 0 { throw refuse("cannot be listed (\(describe(errno)))") }
                    break
                }
                let name = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(cString: $0.baseAddress!.assumingMemoryBound(to: CChar.self))
                }
                if name.hasSuffix(".json") { names.append(name) }
            }
            return .folder(names.sorted())
        case S_IFREG:
            defer { close(descriptor) }
            func longer(_ size: String) -> JobFileError {
                JobFileError(description: "\(path): \(size) bytes, too long; expected \(expected.file) of at most "
                             + "\(maximumBytes) bytes (\(maximumBytes / 1024 / 1024) MiB)")
            }
            guard info.st_size <= maximumBytes else { throw longer("\(info.st_size)") }
            // Read to the end, but never past the bound: the size was a promise, not a limit (a file
            // that grows, a file in /proc whose size says 0).
            var bytes = Data()
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while bytes.count <= maximumBytes {
                let wanted = min(buffer.count, maximumBytes + 1 - bytes.count)
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, wanted) }
                if count > 0 {
                    bytes.append(contentsOf: buffer[..<count])
                } else if count == 0 {
                    return .file(bytes)
                } else if errno != EINTR {
                    throw refuse("cannot be read (\(describe(errno)))")
                }
            }
            throw longer("more than \(maximumBytes)")
        case let type:
            close(descriptor)
            throw refuse(kind(type))
        }
    }

    /// What a file of this type (`st_mode & S_IFMT`) is, for a message.
    static func kind(_ type: mode_t) -> String {
        switch type {
        case S_IFDIR: "a folder"
        case S_IFIFO: "a named pipe (FIFO)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "not a regular file"
        }
    }

    /// Why a path could not be looked at or opened, for a message.
    static func describe(_ error: Int32) -> String {
        switch error {
        case ENOENT: return "no such file or folder"
        case EACCES: return "permission denied (this user may not read it)"
        default:
            let text = String(cString: strerror(error))
            return text.prefix(1).lowercased() + text.dropFirst()
        }
    }

    /// Whether `bytes` are UTF-8 (strictly: no overlong forms, no surrogates).
    static func isUTF8(_ bytes: Data) -> Bool {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    /// What `scalar` is if it must not be in a job id, or `nil`: the control characters (C0, which has
    /// the newline, the carriage return, the tab and the escape of terminal sequences, DEL, and C1,
    /// which has the next-line U+0085), the line separator U+2028 and the paragraph separator U+2029.
    /// Any of them in an id would break or garble the lines that print it.
    static func lineBreaking(_ scalar: Unicode.Scalar) -> String? {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: "a control character"
        case 0x2028: "a line separator"
        case 0x2029: "a paragraph separator"
        default: nil
        }
    }

    /// `U+000A`: a scalar's code, for a message.
    static func name(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// An id as a JSON string, as it would be written in the jobs file: quoted, with `"` and `\` and every
    /// ``lineBreaking(_:)`` character escaped, so the message stays on one line.
    static func quoted(_ id: String) -> String {
        var shown = "\""
        for scalar in id.unicodeScalars {
            switch scalar {
            case "\"": shown += "\\\""
            case "\\": shown += "\\\\"
            case "\n": shown += "\\n"
            case "\r": shown += "\\r"
            case "\t": shown += "\\t"
            case _ where lineBreaking(scalar) != nil: shown += "\\u" + name(scalar).dropFirst(2)
            default: shown.unicodeScalars.append(scalar)
            }
        }
        return shown + "\""
    }
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
