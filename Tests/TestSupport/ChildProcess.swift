import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// A child process started with `posix_spawn`, whose standard output the test reads line by line with
/// bounded waits, and which the test can kill with `SIGKILL` at any moment.
///
/// ```swift
/// let child = try ChildProcess(executable: path, arguments: [folder])
/// let line = child.nextLine(timeout: .seconds(5))    // nil: no line in time, or the child exited
/// child.kill()
/// let rest = child.remainingLines()                  // what it wrote before it died
/// ```
package final class ChildProcess {
    package let pid: pid_t
    private let output: Int32
    private var pending: [UInt8] = []
    private var reachedEnd = false
    private var reaped = false

    /// Starts `executable` with `arguments`, its standard output on a pipe, standard error inherited.
    package init(executable: String, arguments: [String]) throws {
        let ends = try Spawn.pipe()
        defer { close(ends.write) }
        do {
            pid = try Spawn.start([executable] + arguments) { posix_spawn_file_actions_adddup2(&$0, ends.write, 1) }
        } catch {
            close(ends.read)
            throw error
        }
        output = ends.read
    }

    deinit {
        kill()
        close(output)
    }

    /// The next line the child wrote, without its newline; `nil` when none arrives within `timeout`
    /// or the child closed its output.
    package func nextLine(timeout: Duration) -> String? {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout.components.seconds) * 1_000_000_000
            + UInt64(timeout.components.attoseconds / 1_000_000_000)
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            let now = DispatchTime.now().uptimeNanoseconds
            guard !reachedEnd, now < deadline else { return nil }
            var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(min((deadline - now) / 1_000_000 + 1, 1_000)))
            if ready < 0, errno != EINTR { return nil }
            if ready > 0 { readAvailable() }
        }
    }

    /// Sends `SIGKILL` (if the child has not been reaped yet) and waits for it to exit, which is
    /// prompt: `SIGKILL` cannot be caught.
    package func kill() {
        guard !reaped else { return }
        sendKill(pid)
        _ = Spawn.waitForExit(pid)
        reaped = true
    }

    /// Sends a signal (`SIGTERM`, `SIGINT`) to the child, if it has not been reaped yet.
    package func send(signal number: Int32) {
        guard !reaped else { return }
        _ = sendSignal(pid, number)
    }

    /// Waits for the child to exit (after ``send(signal:)``, or once it is done) and reaps it; one
    /// still running after `timeout` is killed, so that a hung child fails its test instead of
    /// hanging the run.
    /// - Returns: The exit status, or the negated signal number when a signal ended it; `nil` when
    ///   the child had to be killed.
    package func waitForExit(within timeout: Duration = .seconds(30)) -> Int32? {
        guard let status = Spawn.waitForExit(pid, within: timeout) else {
            kill()
            return nil
        }
        reaped = true
        return status
    }

    /// Every line the child wrote that has not been read yet, up to the end of its output. Call after
    /// ``kill()``, so the end is near.
    package func remainingLines() -> [String] {
        var lines: [String] = []
        while let line = nextLine(timeout: .seconds(5)) { lines.append(line) }
        return lines
    }

    private func readAvailable() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
        if count > 0 {
            pending += buffer[..<count]
        } else if count == 0 || errno != EINTR {
            reachedEnd = true
        }
    }
}

/// `kill(pid, number)`, under a name that `ChildProcess.kill()` does not shadow.
private func sendSignal(_ pid: pid_t, _ number: Int32) -> Int32 {
    kill(pid, number)
}

/// `kill(pid, SIGKILL)`, under a name that `ChildProcess.kill()` does not shadow.
private func sendKill(_ pid: pid_t) {
    _ = kill(pid, SIGKILL)
}
