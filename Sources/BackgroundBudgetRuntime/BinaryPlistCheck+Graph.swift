extension BinaryPlistCheck {
    /// An object on the walk's path: a collection whose references are being followed.
    private struct Frame {
        var object: Int
        /// The next reference to follow, and the end of the references.
        var next: Int
        var end: Int
        /// The greatest height among the references followed so far (0 for none).
        var height = 0
        /// The objects below it so far, each counted once per reference.
        var size = 0
    }

    /// Walks every object reachable from the top one, depth first with an explicit stack, and refuses
    /// a cycle, nesting past ``InfoPlistLimits/maximumDepth`` and more than
    /// ``InfoPlistLimits/maximumObjects`` objects once every reference is unfolded into its own copy.
    ///
    /// Each object is walked once; its height (the levels it spans) and size (the objects it unfolds
    /// to, capped just past the limit) are kept, so an object shared by many collections costs a lookup
    /// after its first visit.
    /// - Complexity: O(objects + references).
    func checkGraph() -> InfoPlistError? {
        let maximumDepth = InfoPlistLimits.maximumDepth, maximumObjects = InfoPlistLimits.maximumObjects
        // 0: not reached; -1: on the current path; otherwise the height of a finished object.
        var heights = [Int](repeating: 0, count: objectCount)
        var sizes = [Int](repeating: 0, count: objectCount)
        var path = [Frame]()
        guard let root = frame(for: top) else { return nil }   // a root that holds nothing is one level
        heights[top] = -1
        path.append(root)
        while !path.isEmpty {
            let last = path.count - 1
            guard path[last].next < path[last].end else {
                // Every reference followed: the collection is finished.
                let done = path.removeLast()
                heights[done.object] = done.height + 1
                sizes[done.object] = min(done.size + 1, maximumObjects + 1)
                guard !path.isEmpty else { break }
                if let error = add(done.object, heights: heights, sizes: sizes, to: &path) { return error }
                continue
            }
            let child = Int(integer(at: path[last].next, size: referenceSize))
            path[last].next += referenceSize
            switch heights[child] {
            case -1:
                return InfoPlistError(.malformed("object \(child) at byte \(InfoPlistLimits.grouped(offset(of: child))) contains itself"))
            case 0:
                // The child is level path.count + 1.
                if path.count + 1 > maximumDepth { return tooDeep(at: child, path: path) }
                if let frame = frame(for: child) {
                    heights[child] = -1
                    path.append(frame)
                } else {
                    heights[child] = 1
                    sizes[child] = 1
                    if let error = add(child, heights: heights, sizes: sizes, to: &path) { return error }
                }
            default:
                if path.count + heights[child] > maximumDepth {
                    return tooDeep(at: deepest(below: child, level: path.count + 1, heights: heights), path: path)
                }
                if let error = add(child, heights: heights, sizes: sizes, to: &path) { return error }
            }
        }
        return sizes[top] > maximumObjects ? InfoPlistError(.tooManyObjects(limit: maximumObjects)) : nil
    }

    /// Adds a finished child's height and size to the collection at the end of the path.
    private func add(_ child: Int, heights: [Int], sizes: [Int], to path: inout [Frame]) -> InfoPlistError? {
        let last = path.count - 1
        path[last].height = max(path[last].height, heights[child])
        path[last].size = min(path[last].size + sizes[child], InfoPlistLimits.maximumObjects + 1)
        return path[last].size > InfoPlistLimits.maximumObjects ? InfoPlistError(.tooManyObjects(limit: InfoPlistLimits.maximumObjects)) : nil
    }

    /// A frame for a collection with references to follow, or `nil` for any other object (and for an
    /// empty collection), which is one level and one object.
    private func frame(for object: Int) -> Frame? {
        let references = self.references(of: object)
        return references.isEmpty ? nil : Frame(object: object, next: references.lowerBound, end: references.upperBound)
    }

    /// The bytes of an object's references: an array's or set's elements, a dictionary's keys then
    /// values; empty for every other object.
    private func references(of object: Int) -> Range<Int> {
        let offset = offset(of: object)
        switch bytes[offset] >> 4 {
        case 0xA, 0xC: return sized(offset, unit: referenceSize).body
        case 0xD: return sized(offset, unit: 2 * referenceSize).body
        default: return 0..<0
        }
    }

    /// The object at level `maximumDepth + 1` on the tallest path down from `object`, which is at `level`.
    private func deepest(below object: Int, level: Int, heights: [Int]) -> Int {
        var object = object, level = level
        while level <= InfoPlistLimits.maximumDepth {
            let references = self.references(of: object)
            for position in stride(from: references.lowerBound, to: references.upperBound, by: referenceSize) {
                let child = Int(integer(at: position, size: referenceSize))
                if heights[child] == heights[object] - 1 {
                    object = child
                    break
                }
            }
            level += 1
        }
        return object
    }

    /// The error for an object past the depth limit, with the root dictionary's key it is under.
    private func tooDeep(at object: Int, path: [Frame]) -> InfoPlistError {
        let location = "object \(object), byte \(InfoPlistLimits.grouped(offset(of: object)))"
        return InfoPlistError(.nestedTooDeep(limit: InfoPlistLimits.maximumDepth, location: location), key: rootKey(path: path))
    }

    /// The key of the root dictionary's value that the path goes through, when it is a short string.
    private func rootKey(path: [Frame]) -> String? {
        guard let root = path.first, bytes[offset(of: root.object)] >> 4 == 0xD else { return nil }
        let references = self.references(of: root.object)
        let pairs = references.count / (2 * referenceSize)
        // The reference just followed from the root, counted from its first key.
        let index = (root.next - references.lowerBound) / referenceSize - 1
        guard index >= pairs else { return nil }                      // a key, not a value
        let key = Int(integer(at: references.lowerBound + (index - pairs) * referenceSize, size: referenceSize))
        let offset = offset(of: key)
        switch bytes[offset] >> 4 {
        case 0x5:
            let text = bytes[sized(offset, unit: 1).body]
            guard text.count <= 100, text.allSatisfy({ (0x20..<0x7F).contains($0) }) else { return nil }
            return String(decoding: text, as: UTF8.self)
        case 0x6:
            let body = sized(offset, unit: 2).body
            guard body.count <= 200 else { return nil }
            let units = stride(from: body.lowerBound, to: body.upperBound, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
            return String(decoding: units, as: UTF16.self)
        default:
            return nil
        }
    }
}
