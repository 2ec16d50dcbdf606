import Foundation

/// Files of the repository that tests read from the source tree.
package enum SampleFiles {
    /// The repository's root folder (this file is `Tests/TestSupport/SampleFiles.swift`).
    package static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `Examples/InfoPlists`: the sample Info.plists, XML and binary.
    package static let infoPlists = root.appendingPathComponent("Examples/InfoPlists")
}
