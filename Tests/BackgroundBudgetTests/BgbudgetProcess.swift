import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// The real `bgbudget` executable, run as a child process with its standard output and error sent
/// where a test says: a file, `/dev/full`, a pipe nobody reads, or nowhere (closed).
///
/// ```swift
/// let result = try BgbudgetProcess.run(["--help"], standardOutput: .devFull, in: folder)
/// // result.status == 1; result.standardError says "no space left on device"
/// ```
enum BgbudgetProcess {
    /// Where a standard descriptor of the child goes.
    enum Destination {
        /// A file in the test's folder, read back into the result.
        case captured
        /// `/dev/full`: every write fails with `ENOSPC`.
        case devFull
        /// The descriptor is closed.
        case closed
        /// A pipe whose reading end is already closed: a write fails with `EPIPE` (or raises `SIGPIPE`).
        case brokenPipe
    }

    /// How the child ended and what it wrote.
    struct Result {
        /// The exit status, or the negated signal number when a signal ended it.
        var status: Int32
        /// What it wrote to a ``Destination/captured`` standard output.
        var standardOutput: String
        /// What it wrote to a ``Destination/captured`` standard error.
        var standardError: String
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The executable: `$BGBUDGET`, or the one in the build folder next to the test bundle.
    static func executable() -> String? {
        if let path = ProcessInfo.processInfo.environment["BGBUDGET"] { return path }
        return StateStoreCrashTests.searchedFolders.map { $0 + "/bgbudget" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `bgbudget` with `arguments` (with absolute paths) and waits for it to end; what it writes
    /// is captured in files in `folder`.
    ///
    /// The wait has a backstop, not a timer under test: the child holds the writing end of a pipe,
    /// which closes when it exits; if it has not closed after `backstop` (a child that hangs), the
    /// child is killed and the run throws.
    static func run(_ arguments: [String], standardOutput: Destination = .captured, standardError: Destination = .captured,
                    fileSizeLimit: Int? = nil, in folder: URL, backstop: Int32 = 60_000) throws -> Result {
        guard let executable = executable() else {
            throw Failure(description: "bgbudget was not found next to the test bundle (looked in "
                          + StateStoreCrashTests.searchedFolders.joined(separator: ", ") + "); set $BGBUDGET")
        }
        var exitPipe: [Int32] = [0, 0]
        var brokenPipe: [Int32] = [0, 0]
        guard pipe(&exitPipe) == 0, pipe(&brokenPipe) == 0 else { throw Failure(description: "pipe failed") }
        for end in exitPipe + brokenPipe { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        close(brokenPipe[0])
        defer { close(brokenPipe[1]) }

        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let outputs = [(Int32(1), standardOutput, folder.appendingPathComponent("stdout.txt").path),
                       (Int32(2), standardError, folder.appendingPathComponent("stderr.txt").path)]
        for (descriptor, destination, file) in outputs {
            switch destination {
            case .captured: posix_spawn_file_actions_addopen(&actions, descriptor, file, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            case .devFull: posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/full", O_WRONLY, 0)
            case .closed: posix_spawn_file_actions_addclose(&actions, descriptor)
            case .brokenPipe: posix_spawn_file_actions_adddup2(&actions, brokenPipe[1], descriptor)
            }
        }
        posix_spawn_file_actions_adddup2(&actions, exitPipe[1], 3)
        // With a file-size limit, through `sh`, whose `ulimit -f` (in 512-byte blocks) the child inherits.
        let command = fileSizeLimit.map { ["/bin/sh", "-c", "ulimit -f \($0) && exec \"$0\" \"$@\"", executable] } ?? [executable]
        let argv = (command + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, environ)
        close(exitPipe[1])
        defer { close(exitPipe[0]) }
        guard spawned == 0 else { throw Failure(description: "posix_spawn: \(String(cString: strerror(spawned)))") }

        var ready = pollfd(fd: exitPipe[0], events: Int16(POLLIN), revents: 0)
        var polled: Int32
        repeat { polled = poll(&ready, 1, backstop) } while polled < 0 && errno == EINTR
        if polled == 0 { kill(pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        if polled == 0 { throw Failure(description: "bgbudget \(arguments) did not end; it was killed") }

        let signal = status & 0x7F
        let read = { (destination: Destination, file: String) -> String in
            destination == .captured ? ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "") : ""
        }
        return Result(status: signal == 0 ? (status >> 8) & 0xFF : -signal,
                      standardOutput: read(standardOutput, outputs[0].2), standardError: read(standardError, outputs[1].2))
    }
}
