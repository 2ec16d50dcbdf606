#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

extension ScenarioCommand {
    /// The `bgbudget` executable: runs the tool, prints the outcome, and returns the exit status.
    ///
    /// ```swift
    /// exit(ScenarioCommand.main(Array(CommandLine.arguments.dropFirst())))
    /// ```
    ///
    /// Printing never traps. When standard output cannot be written (a full disk, a closed
    /// descriptor, a pipe whose reader has gone) the tool says so on standard error and exits with
    /// ``ExitStatus/failure``; when standard error cannot be written either, it still exits with
    /// ``ExitStatus/failure``. For this, the function sets `SIGPIPE` and `SIGXFSZ` to be ignored, so a
    /// write to a closed pipe or past the file-size limit fails (`EPIPE`, `EFBIG`) instead of killing
    /// the process; and standard input, output or
    /// error that are closed are held open on `/dev/null` while the tool runs, so no file it opens
    /// takes their place, and are then reported as closed if there is anything to print to them.
    /// During `explore`, Ctrl-C (`SIGINT`) stops the search and prints what it found so far; a second
    /// Ctrl-C quits at once with status 130. The signal is received by a Dispatch signal source, not by
    /// a signal handler, so nothing runs in a signal's context.
    /// - Parameter arguments: The arguments after the program name.
    /// - Returns: The status to exit with: 0, 1, 2 or 130, as ``ExitStatus``.
    package static func main(_ arguments: [String]) -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        // Likewise a write past the file-size limit (`ulimit -f`) fails with EFBIG instead of killing.
        signal(SIGXFSZ, SIG_IGN)
        let closed = holdClosedStandardDescriptors()
        // The progress line of `explore` goes to standard error, only when standard error is a terminal.
        var progress: (@Sendable (String) -> Void)?
        if isatty(2) == 1 { progress = { (line: String) in _ = OutputFile.writeAll(line, to: 2) } }
        let outcome: Outcome
        if arguments.first == "explore" {
            let interruption = Interruption()
            outcome = withExtendedLifetime(interruption) { run(arguments, progress: progress, interrupted: interruption.flag) }
        } else {
            outcome = run(arguments, progress: progress)
        }
        return deliver(outcome, standardOutput: closed.contains(1) ? nil : 1, standardError: closed.contains(2) ? nil : 2).rawValue
    }

    /// Prints an outcome to two descriptors and returns the status to exit with: the outcome's, or
    /// ``ExitStatus/failure`` when anything could not be written.
    /// - Parameters:
    ///   - outcome: What to print.
    ///   - standardOutput: The descriptor for the output, or `nil` when it is closed.
    ///   - standardError: The descriptor for messages, or `nil` when it is closed.
    static func deliver(_ outcome: Outcome, standardOutput: Int32?, standardError: Int32?) -> ExitStatus {
        var status = outcome.status
        var messages = outcome.standardError
        if !outcome.standardOutput.isEmpty {
            let failure = standardOutput.map { OutputFile.writeAll(outcome.standardOutput, to: $0) } ?? EBADF
            if let failure {
                status = .failure
                messages += "bgbudget: cannot write to standard output: \(streamProblem(failure))\n"
            }
        }
        if !messages.isEmpty {
            guard let standardError, OutputFile.writeAll(messages, to: standardError) == nil else { return .failure }
        }
        return status
    }

    /// `it is closed`, `the reading end of the pipe is closed`, or the system's reason.
    static func streamProblem(_ code: Int32) -> String {
        switch code {
        case EBADF: "it is closed"
        case EPIPE: "the reading end of the pipe is closed"
        default: InputFile.reason(code)
        }
    }

    /// Opens `/dev/null` on each of descriptors 0, 1 and 2 that is closed, so that files the tool
    /// opens never get those numbers, and returns which were closed.
    private static func holdClosedStandardDescriptors() -> Set<Int32> {
        var closed: Set<Int32> = []
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            closed.insert(descriptor)
            let null = open("/dev/null", O_RDWR)
            if null >= 0, null != descriptor {
                _ = dup2(null, descriptor)
                close(null)
            }
        }
        return closed
    }
}
