#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif
import Foundation

/// A property of the code under test that one input broke: what was expected, said in a sentence.
///
/// Harness checks throw it through ``require(_:_:)``; the fuzzer entry point turns it into a crash
/// (so libFuzzer saves the input), the replay tool into a failure line naming the file.
public struct PropertyFailure: Error, CustomStringConvertible {
    /// What did not hold.
    public var description: String

    /// Creates a failure.
    /// - Parameter description: What did not hold.
    public init(_ description: String) {
        self.description = description
    }
}

/// Throws a ``PropertyFailure`` when a property does not hold.
/// - Parameters:
///   - condition: The property.
///   - message: What was expected, with the values that broke it.
public func require(_ condition: Bool, _ message: @autoclosure () -> String) throws(PropertyFailure) {
    if !condition { throw PropertyFailure(message()) }
}

/// A harness's check of one input: returns normally when every property holds.
public typealias FuzzCheck = ([UInt8]) throws(PropertyFailure) -> Void

/// Runs one input from libFuzzer through a check; a broken property prints and aborts, which libFuzzer
/// reports as a crash and saves the input for.
/// - Parameters:
///   - start: The input's bytes (may be `nil` when `count` is 0).
///   - count: The number of bytes.
///   - check: The harness's check.
/// - Returns: 0, as libFuzzer expects.
public func fuzzOneInput(_ start: UnsafeRawPointer?, _ count: Int, check: FuzzCheck) -> CInt {
    let bytes = count == 0 || start == nil ? [] : Array(UnsafeRawBufferPointer(start: start, count: count))
    do {
        try check(bytes)
    } catch {
        printError("property failed: \(error)\n")
        abort()
    }
    return 0
}

/// Writes a line to standard error.
func printError(_ line: String) {
    FileHandle.standardError.write(Data(line.utf8))
}

#if FUZZING
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafeRawPointer?, Int) -> CInt
) -> CInt

/// Hands the process to libFuzzer's driver, which parses the command line (`-max_total_time=60`,
/// corpus directories) and calls `callback` once per input.
///
/// SwiftPM links an executable's entry point under the name `<Module>_main`; a fuzz build has no
/// `@main`, so each harness defines that symbol and calls this.
/// - Parameters:
///   - argc: The argument count, as `main` receives it.
///   - argv: The arguments, as `main` receives them.
///   - callback: The harness's `LLVMFuzzerTestOneInput`.
/// - Returns: libFuzzer's exit status.
public func runFuzzer(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                      _ callback: @convention(c) (UnsafeRawPointer?, Int) -> CInt) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, callback)
}
#endif

/// Replays inputs through a check without the fuzzer: every regular file in the directories (and
/// their subdirectories) and every file named on the command line, in sorted order.
///
/// ```sh
/// swift run FuzzScenario Tests/Fuzz/Corpus/scenario
/// ```
/// Prints one line per failing input and a summary; the process's exit status is 0 only when every
/// input passed (and at least one was found).
/// - Parameters:
///   - name: The harness's name, for the summary.
///   - paths: Files and directories.
///   - check: The harness's check.
/// - Returns: The exit status: 0 when every input passed, 1 otherwise.
public func replayCorpus(name: String, paths: some Sequence<String>, check: FuzzCheck) -> Int32 {
    var files: [String] = []
    let manager = FileManager.default
    for path in paths {
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
            printError("\(name): no such file or directory: \(path)\n")
            return 1
        }
        guard isDirectory.boolValue else {
            files.append(path)
            continue
        }
        let found = manager.enumerator(atPath: path)?.compactMap { $0 as? String } ?? []
        for relative in found.sorted() where !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
            let full = (path as NSString).appendingPathComponent(relative)
            var nested: ObjCBool = false
            if manager.fileExists(atPath: full, isDirectory: &nested), !nested.boolValue { files.append(full) }
        }
    }
    guard !files.isEmpty else {
        printError("usage: \(name) FILE-OR-DIRECTORY…  (replays each file through the fuzz check)\n")
        return 1
    }
    var failures = 0
    let start = Date()
    for file in files {
        guard let data = manager.contents(atPath: file) else {
            printError("\(file): cannot read\n")
            failures += 1
            continue
        }
        do {
            try check(Array(data))
        } catch {
            printError("\(file): property failed: \(error)\n")
            failures += 1
        }
    }
    let milliseconds = Int(Date().timeIntervalSince(start) * 1000)
    print("\(name): replayed \(files.count) inputs in \(milliseconds) ms, \(failures) failed")
    return failures == 0 ? 0 : 1
}
