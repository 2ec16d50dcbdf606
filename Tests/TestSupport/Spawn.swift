#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

#if canImport(Darwin)
/// The file actions `posix_spawn` applies in the child before it runs the program.
typealias SpawnFileActions = posix_spawn_file_actions_t?
#else
/// The file actions `posix_spawn` applies in the child before it runs the program.
typealias SpawnFileActions = posix_spawn_file_actions_t
#endif

/// `posix_spawn`, as both ways the tests start a child use it (``ChildProcess``, which reads its output
/// as it comes, and ``ProductProcess``, which waits for the end): the C arrays, the file actions, the
/// exit status.
enum Spawn {
    /// Why a child could not be started.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts `command[0]` with the rest of `command` as its arguments, after `arrange` has added the
    /// file actions (redirections, closes) the child applies first.
    /// - Parameter environment: The child's variables; the test's own when `nil`.
    /// - Returns: The child's process id; reap it with ``waitForExit(_:)``.
    static func start(_ command: [String], environment: [String: String]? = nil,
                      arrange: (inout SpawnFileActions) -> Void = { _ in }) throws -> pid_t {
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        arrange(&actions)
        let argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { envp?.forEach { free($0) } }
        var pid: pid_t = 0
        let status = envp.map { posix_spawn(&pid, command[0], &actions, nil, argv, $0) }
            ?? posix_spawn(&pid, command[0], &actions, nil, argv, inheritedEnvironment())
        guard status == 0 else { throw Failure(description: "posix_spawn \(command[0]): \(String(cString: strerror(status)))") }
        return pid
    }

    /// The test process's own variables, for a child that inherits them. Darwin's headers do not
    /// declare `environ` to bundles, which a test bundle is (environ(7): "shared libraries and bundles
    /// don't have direct access to environ"; use `_NSGetEnviron()` from `<crt_externs.h>`).
    private static func inheritedEnvironment() -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        #if canImport(Darwin)
        _NSGetEnviron().pointee
        #else
        environ
        #endif
    }

    /// Waits for `pid` to exit and reaps it, retrying when a signal interrupts the wait.
    /// - Returns: The exit status, or the negated signal number when a signal ended it.
    static func waitForExit(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return decode(status)
    }

    /// Waits at most `timeout` for `pid` to exit, and reaps it if it did, looking every 5 ms (a
    /// child that hangs must fail its test, not hang the whole run).
    /// - Returns: As ``waitForExit(_:)``; `nil` if it is still running after `timeout` (or cannot
    ///   be waited for).
    static func waitForExit(_ pid: pid_t, within timeout: Duration) -> Int32? {
        let deadline = ContinuousClock.now + timeout
        var status: Int32 = 0
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { return decode(status) }
            if reaped < 0, errno != EINTR { return nil }
            if ContinuousClock.now >= deadline { return nil }
            usleep(5_000)
        }
    }

    /// The exit status `waitpid` reported, or the negated signal number when a signal ended the process.
    private static func decode(_ status: Int32) -> Int32 {
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : -signal
    }

    /// A pipe whose two ends close on `exec`, so that children spawned by other tests never inherit
    /// them (a child gets its own copy of an end through a `dup2` file action).
    static func pipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        #if canImport(Glibc)
        let made = Glibc.pipe(&ends)
        #elseif canImport(Darwin)
        let made = Darwin.pipe(&ends)
        #else
        let made = Musl.pipe(&ends)
        #endif
        guard made == 0 else { throw Failure(description: "pipe: \(String(cString: strerror(errno)))") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }
}
