import Foundation
import Testing
import TestSupport

/// The main-actor delegate protocols repeat the method lists of the `Sendable` ones (a protocol's
/// isolation covers every requirement, so one list cannot serve both): these tests keep each pair's
/// requirements and default implementations the same, so a method added to one is added to the other.
@Suite struct DelegateTwinTests {
    private func source(_ file: String) throws -> String {
        try String(contentsOf: SampleFiles.root.appendingPathComponent("Sources/BackgroundBudgetRuntime/\(file)"), encoding: .utf8)
    }

    /// The `func` signatures (without `public` and without a default body) in the body that follows
    /// `opening` (a protocol, an extension or a class), up to its closing brace at column 0; a signature
    /// that goes on over several lines is joined.
    private func declarations(in text: String, after opening: String) -> [String] {
        guard let start = text.range(of: opening) else { return [] }
        var result: [String] = []
        var pending = ""
        for line in text[start.upperBound...].split(separator: "\n") {
            if line.hasPrefix("}") { break }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if pending.isEmpty {
                guard trimmed.hasPrefix("func ") || trimmed.hasPrefix("public func ") else { continue }
                pending = trimmed
            } else {
                pending += " " + trimmed
            }
            if pending.filter({ $0 == "(" }).count == pending.filter({ $0 == ")" }).count {
                let signature = pending.split(separator: "{", maxSplits: 1)[0]
                result.append(signature.replacingOccurrences(of: "public ", with: "").trimmingCharacters(in: .whitespaces))
                pending = ""
            }
        }
        return result
    }

    @Test func theApplicationDelegatesDeclareAndDefaultTheSameMethods() throws {
        let plain = try source("ApplicationDelegate.swift")
        let mainActor = try source("MainActorApplicationDelegate.swift")
        let requirements = declarations(in: plain, after: "public protocol ApplicationDelegate: AnyObject, Sendable {")
        #expect(requirements.count == 11)
        #expect(declarations(in: mainActor, after: "public protocol MainActorApplicationDelegate: AnyObject, Sendable {")
                == requirements)
        let defaults = declarations(in: plain, after: "extension ApplicationDelegate {")
        #expect(defaults == requirements)
        #expect(declarations(in: mainActor, after: "extension MainActorApplicationDelegate {") == defaults)
        // The adapter forwards every method.
        #expect(declarations(in: mainActor, after: "final class MainActorDelegateAdapter: ApplicationDelegate {")
                == requirements)
    }

    @Test func theSceneDelegatesDeclareAndDefaultTheSameMethods() throws {
        let plain = try source("SceneDelegate.swift")
        let mainActor = try source("MainActorSceneDelegate.swift")
        let requirements = declarations(in: plain, after: "public protocol SceneDelegate: AnyObject, Sendable {")
        #expect(requirements.count == 7)
        #expect(declarations(in: mainActor, after: "public protocol MainActorSceneDelegate: AnyObject, Sendable {")
                == requirements)
        #expect(declarations(in: plain, after: "extension SceneDelegate {")
                == declarations(in: mainActor, after: "extension MainActorSceneDelegate {"))
    }
}
