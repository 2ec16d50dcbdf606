import BackgroundBudgetCore
import BackgroundBudgetRuntime

/// Reads one JSON value of a scenario file and reports every problem with the value's JSONPath and
/// source position.
///
/// The decoder, the event vocabulary (``ScenarioAction``) and the behaviour vocabulary
/// (``ScenarioStep``) all read through this type, so every error looks the same.
struct ScenarioReader {
    /// The value.
    let node: JSONNode
    /// Where the value is in the document.
    let path: JSONPath
    /// The whole text, for turning offsets into lines and columns.
    let source: [UInt8]

    /// An error about this value.
    func error(_ problem: ScenarioError.Problem) -> ScenarioError {
        ScenarioError(problem, path: path.description, position: SourcePosition(offset: node.offset, in: source))
    }

    /// The value as an object that may hold only the `accepted` keys.
    /// - Throws: ``ScenarioError`` for another type, or for the first key not in `accepted`
    ///   (reported at the key, listing `accepted`).
    func object(accepting accepted: [String]) throws(ScenarioError) -> ObjectReader {
        guard case .object(let members) = node.value else { throw error(.wrongType(expected: "an object", found: node.typeName)) }
        for member in members where !accepted.contains(member.key) {
            throw ScenarioError(.unknownKey(member.key, accepted: accepted), path: path.appending(key: member.key).description,
                                position: SourcePosition(offset: member.keyOffset, in: source))
        }
        return ObjectReader(reader: self, members: members)
    }

    /// The value as an array of readers, one per element.
    func array() throws(ScenarioError) -> [ScenarioReader] {
        guard case .array(let elements) = node.value else { throw error(.wrongType(expected: "an array", found: node.typeName)) }
        return elements.enumerated().map { ScenarioReader(node: $1, path: path.appending(index: $0), source: source) }
    }

    /// The value as a string.
    func string() throws(ScenarioError) -> String {
        guard case .string(let text) = node.value else { throw error(.wrongType(expected: "a string", found: node.typeName)) }
        return text
    }

    /// The value as a boolean.
    func bool() throws(ScenarioError) -> Bool {
        guard case .bool(let value) = node.value else { throw error(.wrongType(expected: "true or false", found: node.typeName)) }
        return value
    }

    /// The value as a number.
    func number() throws(ScenarioError) -> Double {
        guard case .number(let value) = node.value else { throw error(.wrongType(expected: "a number", found: node.typeName)) }
        return value
    }

    /// The value as a number of seconds from 0 to ``Scenario/maxSeconds``, kept to the nanosecond.
    /// A whole number of bytes from megabytes (1 MB = 1,000,000 bytes), from 0 to 10⁹ MB.
    func megabytes() throws(ScenarioError) -> Int {
        let value = try number()
        guard value >= 0, value <= 1e9 else { throw error(.outOfRange(value, accepted: "0 to 1000000000 megabytes")) }
        return Int((value * 1_000_000).rounded())
    }

    func seconds() throws(ScenarioError) -> Duration {
        let value = try number()
        guard value >= 0, value <= Scenario.maxSeconds else {
            throw error(.outOfRange(value, accepted: "seconds from 0 to \(plainNumber(Scenario.maxSeconds))"))
        }
        return .nanoseconds(Int64((value * 1e9).rounded()))
    }

    /// The value as one of a fixed set of names.
    /// - Parameter choices: The accepted names, in the order errors list them, with their values.
    func oneOf<Value>(_ choices: KeyValuePairs<String, Value>) throws(ScenarioError) -> Value {
        let name = try string()
        guard let match = choices.first(where: { $0.key == name }) else {
            throw error(.unknownValue(name, accepted: choices.map(\.key)))
        }
        return match.value
    }

    /// The value as a case of a string enumeration, accepting every case's raw value.
    func oneOf<Value: RawRepresentable & CaseIterable>(_ type: Value.Type) throws(ScenarioError) -> Value where Value.RawValue == String {
        let name = try string()
        guard let match = Value(rawValue: name) else {
            throw error(.unknownValue(name, accepted: Value.allCases.map(\.rawValue)))
        }
        return match
    }
}
