import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// An executable product of this package — `bgbudget`, an example program, `StateStoreTorture` —
/// found in the build folder next to the test bundle and run as a child process, with its standard
/// output and error sent where a test says: a file, `/dev/full`, a pipe nobody reads, or nowhere (closed).
///
/// ```swift
/// let result = try ProductProcess.run("bgbudget", ["--help"], standardOutput: .devFull, in: folder)
/// // result.status == 1; result.standardError says "no space left on device"
/// let lab = try ProductProcess.run("StateLab", ["--jsonl"], environment: ["TMPDIR": folder.path],
///                                  currentDirectory: folder, in: folder)
/// // lab.standardOutputData: exactly the bytes StateLab wrote
/// ```
package enum ProductProcess {
    /// Where a standard descriptor of the child goes.
    package enum Destination {
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
    package struct Result: Sendable {
        /// The exit status, or the negated signal number when a signal ended it.
        package var status: Int32
        /// The bytes it wrote to a ``Destination/captured`` standard output, exactly.
        package var standardOutputData: Data
        /// The bytes it wrote to a ``Destination/captured`` standard error, exactly.
        package var standardErrorData: Data

        /// ``standardOutputData`` as UTF-8 text; empty if it is not UTF-8.
        package var standardOutput: String { String(data: standardOutputData, encoding: .utf8) ?? "" }
        /// ``standardErrorData`` as UTF-8 text; empty if it is not UTF-8.
        package var standardError: String { String(data: standardErrorData, encoding: .utf8) ?? "" }
    }

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// The folders searched for the package's executables (``ProductProcess/executable(_:)``): the test
    /// bundle's folder (the build folder) and, on Apple platforms, the folder of the `.xctest` bundle
    /// this code was loaded from and of any loaded `.xctest` bundle.
    package static var searchedFolders: [String] {
        var folders = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        #if canImport(Darwin)
        // On macOS `swift test` runs the tests in a helper that loads the bundle, so neither
        // `arguments[0]` nor `Bundle.main` is in the build folder; the image holding this code is.
        var image = Dl_info()
        if dladdr(#dsohandle, &image) != 0, let name = image.dli_fname {
            var url = URL(fileURLWithPath: String(cString: name))
            while url.pathComponents.count > 1, url.pathExtension != "xctest" { url.deleteLastPathComponent() }
            if url.pathExtension == "xctest" { folders.append(url.deletingLastPathComponent()) }
        }
        #endif
        if let main = Bundle.main.executableURL { folders.append(main.deletingLastPathComponent()) }
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
        }
        var seen = Set<String>()
        return folders.map(\.standardizedFileURL.path).filter { seen.insert($0).inserted }
    }

    /// The environment variables that name a product's executable instead of the build folder.
    package static let overrides = ["bgbudget": "BGBUDGET", "StateStoreTorture": "STATESTORE_TORTURE"]

    /// A product's executable: the path in its variable of ``overrides``, if set, or the one in the
    /// build folder next to the test bundle (``searchedFolders``).
    package static func executable(_ product: String) -> String? {
        if let variable = overrides[product], let path = ProcessInfo.processInfo.environment[variable] { return path }
        return searchedFolders.map { $0 + "/" + product }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `product` with `arguments` and waits for it to end; what it writes is captured in files
    /// in `folder`.
    ///
    /// The child inherits the test's environment with `environment` added over it, and runs in
    /// `currentDirectory` (the test's own when `nil`; then give it absolute paths).
    ///
    /// The wait has a backstop, not a timer under test: the child holds the writing end of a pipe,
    /// which closes when it exits; if it has not closed after `backstop` (a child that hangs), the
    /// child is killed and the run throws.
    package static func run(_ product: String, _ arguments: [String], standardOutput: Destination = .captured,
                    standardError: Destination = .captured, fileSizeLimit: Int? = nil, environment: [String: String] = [:],
                    currentDirectory: URL? = nil, in folder: URL, backstop: Int32 = 60_000) throws -> Result {
        guard let executable = executable(product) else {
            throw Failure(description: "\(product) was not found next to the test bundle (looked in "
                          + searchedFolders.joined(separator: ", ") + "); build it with `swift build --build-tests`"
                          + (overrides[product].map { " or set $\($0)" } ?? ""))
        }
        // The child holds the writing end of `ended` as descriptor 3; it closes when the child ends.
        let ended = try Spawn.pipe(), broken = try Spawn.pipe()
        close(broken.read)
        defer { close(broken.write) }
        defer { close(ended.read) }
        let outputs = [(Int32(1), standardOutput, folder.appendingPathComponent("stdout.txt").path),
                       (Int32(2), standardError, folder.appendingPathComponent("stderr.txt").path)]
        // With a file-size limit or another folder, through `sh`: the child inherits its `ulimit -f`
        // (in 512-byte blocks with dash, Debian's `sh`; 1024-byte with macOS's `sh`, bash 3.2) and its
        // `cd` (`posix_spawn_file_actions_addchdir_np` is not in every libc).
        var steps: [String] = [], shellArguments: [String] = []
        if let fileSizeLimit { steps.append("ulimit -f \(fileSizeLimit)") }
        if let currentDirectory {
            steps.append("cd \"$1\" && shift")
            shellArguments.append(currentDirectory.path)
        }
        let command = steps.isEmpty ? [executable]
            : ["/bin/sh", "-c", (steps + ["exec \"$0\" \"$@\""]).joined(separator: " && "), executable] + shellArguments
        let pid: pid_t
        do {
            defer { close(ended.write) }
            pid = try Spawn.start(command + arguments,
                                  environment: ProcessInfo.processInfo.environment.merging(environment) { _, added in added }) { actions in
                for (descriptor, destination, file) in outputs {
                    switch destination {
                    case .captured: posix_spawn_file_actions_addopen(&actions, descriptor, file, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                    case .devFull: posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/full", O_WRONLY, 0)
                    case .closed: posix_spawn_file_actions_addclose(&actions, descriptor)
                    case .brokenPipe: posix_spawn_file_actions_adddup2(&actions, broken.write, descriptor)
                    }
                }
                posix_spawn_file_actions_adddup2(&actions, ended.write, 3)
            }
        }

        var ready = pollfd(fd: ended.read, events: Int16(POLLIN), revents: 0)
        var polled: Int32
        repeat { polled = poll(&ready, 1, backstop) } while polled < 0 && errno == EINTR
        if polled == 0 { kill(pid, SIGKILL) }
        let status = Spawn.waitForExit(pid)
        if polled == 0 { throw Failure(description: "\(product) \(arguments) did not end; it was killed") }

        let read = { (destination: Destination, file: String) -> Data in
            destination == .captured ? ((try? Data(contentsOf: URL(fileURLWithPath: file))) ?? Data()) : Data()
        }
        return Result(status: status, standardOutputData: read(standardOutput, outputs[0].2),
                      standardErrorData: read(standardError, outputs[1].2))
    }
}
