import Foundation

/// Files of the repository that tests read from the source tree, and byte helpers for mutating them.
package enum SampleFiles {
    /// The repository's root folder (this file is `Tests/TestSupport/SampleFiles.swift`).
    package static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `Examples/InfoPlists`: the sample Info.plists, XML and binary.
    package static let infoPlists = root.appendingPathComponent("Examples/InfoPlists")

    /// The offsets of the bytes that match, in order.
    package static func offsets(in text: [UInt8], where matches: (UInt8) -> Bool) -> [Int] {
        text.withUnsafeBufferPointer { bytes in
            var found: [Int] = []
            for index in 0..<bytes.count where matches(bytes[index]) { found.append(index) }
            return found
        }
    }
}
