import BackgroundBudgetExplorer
import BackgroundBudgetScenario

/// The error decoding `text` as a scenario produces, as `line:column path: message`, or `"decoded"`.
func decodingFailure(_ text: String) -> String {
    do {
        _ = try Scenario(json: text)
        return "decoded"
    } catch {
        return "\(error.position.map(\.description) ?? "-") \(error.path): \(error.message)"
    }
}
