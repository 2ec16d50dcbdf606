import BackgroundBudgetCore
import BackgroundBudgetRuntime

/// A JSONPath naming one value of a document, as errors print it: `$.events[3].do`.
///
/// Keys that are plain identifiers print with a dot; any other key prints in brackets and quotes
/// (`$.apps[0].behaviour['application:didFinishLaunchingWithOptions']`).
struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// One step down from a container.
    enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    /// The steps from the document's root.
    var components: [Component]

    /// The root, `$`.
    static let root = JSONPath(components: [])

    /// The path of a member of the object at this path.
    func appending(key: String) -> JSONPath {
        var copy = self
        copy.components.append(.key(key))
        return copy
    }

    /// The path of an element of the array at this path.
    func appending(index: Int) -> JSONPath {
        var copy = self
        copy.components.append(.index(index))
        return copy
    }

    /// `$.events[3].do`.
    var description: String {
        var text = "$"
        for component in components {
            switch component {
            case .index(let index):
                text += "[\(index)]"
            case .key(let key) where Self.isIdentifier(key) && key.utf8.count <= BoundedText.quoteLimit:
                text += "." + key
            case .key(let key):
                // A key longer than any the format knows is clipped, so a message stays short.
                var escaped = ""
                for character in BoundedText.clipped(key) {
                    if character == "'" || character == "\\" { escaped.append("\\") }
                    escaped.append(character)
                }
                text += "['\(escaped)']"
            }
        }
        return text
    }

    private static func isIdentifier(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, first == "_" || first.properties.isAlphabetic,
              first.isASCII else { return false }
        return key.unicodeScalars.allSatisfy { $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0)) }
    }
}
