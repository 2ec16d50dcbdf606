import BackgroundBudgetCore
import BackgroundBudgetRuntime

/// An object of a scenario file whose keys have been checked against the accepted ones.
struct ObjectReader {
    /// The object itself.
    let reader: ScenarioReader
    /// Its members, in source order.
    let members: [JSONMember]

    /// The reader for a key's value, or `nil` when the key is absent.
    func optional(_ key: String) -> ScenarioReader? {
        guard let member = members.first(where: { $0.key == key }) else { return nil }
        return ScenarioReader(node: member.value, path: reader.path.appending(key: key), source: reader.source)
    }

    /// The reader for a key's value.
    /// - Throws: ``ScenarioError`` with ``ScenarioError/Problem/missingKey(_:)``, at the object.
    func required(_ key: String) throws(ScenarioError) -> ScenarioReader {
        guard let value = optional(key) else { throw reader.error(.missingKey(key)) }
        return value
    }

    /// The `app` key of an event: the identifier of a declared app (checked by ``Scenario/validate()``).
    func app() throws(ScenarioError) -> AppID {
        AppID(rawValue: try required("app").string())
    }
}
