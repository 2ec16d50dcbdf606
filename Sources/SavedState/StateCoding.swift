import Foundation

/// JSON encoding and decoding for ``StateStore``, with Foundation's errors turned into
/// ``StateStoreError`` problems that name the value's coding path as a JSONPath (`$.items[2].title`).
///
/// ```swift
/// let payload = try StateCoding.encode(draft, path: file).get()   // sorted keys, UTF-8
/// let draft = try StateCoding.decode(Draft.self, from: payload[...], path: file).get()
/// ```
enum StateCoding {
    /// Encodes a value as JSON with sorted keys. Runs the value's `encode(to:)`: call without locks.
    /// - Parameters:
    ///   - value: The value.
    ///   - path: The file named in an error.
    /// - Returns: The JSON bytes, or why the value cannot be encoded.
    static func encode<Value: Encodable>(_ value: Value, path: String) -> Result<[UInt8], StateStoreError> {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return .success(Array(try encoder.encode(value)))
        } catch let EncodingError.invalidValue(_, context) {
            return .failure(StateStoreError(.encodingFailed(codingPath: jsonPath(context.codingPath),
                                                            reason: context.debugDescription), path: path))
        } catch {
            return .failure(StateStoreError(.encodingFailed(codingPath: "$", reason: "\(error)"), path: path))
        }
    }

    /// Decodes a value from JSON. Runs the value's `init(from:)`: call without locks.
    /// - Parameters:
    ///   - type: The value's type.
    ///   - payload: The JSON bytes.
    ///   - path: The file named in an error.
    /// - Returns: The value, or where and why decoding failed.
    static func decode<Value: Decodable>(_ type: Value.Type, from payload: ArraySlice<UInt8>,
                                         path: String) -> Result<Value, StateStoreError> {
        func failure(_ codingPath: [any CodingKey], _ reason: String) -> Result<Value, StateStoreError> {
            .failure(StateStoreError(.decodingFailed(codingPath: jsonPath(codingPath), reason: reason), path: path))
        }
        do {
            return .success(try JSONDecoder().decode(type, from: Data(payload)))
        } catch let DecodingError.keyNotFound(key, context) {
            return failure(context.codingPath + [key], "missing key \"\(key.stringValue)\"")
        } catch let DecodingError.typeMismatch(_, context) {
            return failure(context.codingPath, context.debugDescription)
        } catch let DecodingError.valueNotFound(_, context) {
            return failure(context.codingPath, context.debugDescription)
        } catch let DecodingError.dataCorrupted(context) {
            let underlying = context.underlyingError.map { " (\($0))" } ?? ""
            return failure(context.codingPath, context.debugDescription + underlying)
        } catch {
            return failure([], "\(error)")
        }
    }

    /// `$.items[2].title` for the coding path `items`, `2`, `title`.
    static func jsonPath(_ codingPath: [any CodingKey]) -> String {
        codingPath.reduce("$") { path, key in
            if let index = key.intValue, key.stringValue == "Index \(index)" {      // an array element
                return path + "[\(index)]"
            }
            return path + "." + key.stringValue
        }
    }
}
