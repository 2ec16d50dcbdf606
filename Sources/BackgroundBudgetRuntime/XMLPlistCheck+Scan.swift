extension XMLPlistCheck {
    private static let lessThan = UInt8(ascii: "<"), greaterThan = UInt8(ascii: ">"), slash = UInt8(ascii: "/")
    private static let bang = UInt8(ascii: "!"), question = UInt8(ascii: "?"), dash = UInt8(ascii: "-")

    /// Walks the markup once, tracking the element depth, and stops at the first problem.
    func scan() -> InfoPlistError? {
        var depth = 0                // elements open around the current position
        var objects = 0              // elements seen, the wrapper aside
        var wrapped = false          // whether the first element is `<plist>`, which is not a value
        var seenElement = false
        var rootKey: String?         // the latest `<key>` in the root dictionary
        var index = 0
        while let open = units[index...].firstIndex(of: Self.lessThan) {
            let next = open + 1 < units.count ? units[open + 1] : 0
            switch next {
            case Self.slash:
                guard let end = tagEnd(from: open + 2) else { return nil }
                if case .problem(let problem) = end { return malformed("\(problem) at \(location(of: open))") }
                depth = max(0, depth - 1)
                index = end.position + 1
            case Self.bang:
                guard let end = skipDeclaration(at: open) else { return nil }
                if case .problem(let problem) = end { return malformed("\(problem) at \(location(of: open))") }
                index = end.position + 1
            case Self.question:
                guard let close = find(Self.processingEnd, from: open + 2) else { return nil }
                if units[(open + 2)..<close].contains(Self.greaterThan) {
                    return malformed(#"a ">" inside a processing instruction at \#(location(of: open))"#)
                }
                index = close + 2
            default:
                guard let end = tagEnd(from: open + 1) else { return nil }
                if case .problem(let problem) = end { return malformed("\(problem) at \(location(of: open))") }
                if !seenElement, depth == 0 { wrapped = element(at: open + 1, isNamed: Self.plistName) }
                let isWrapper = wrapped && depth == 0 && !seenElement
                seenElement = true
                index = end.position + 1
                if isWrapper {
                    if !end.selfClosing { depth += 1 }
                    continue
                }
                // The level of this value: 1 for the root, 2 for the root dictionary's keys and values.
                let level = depth + 1 - (wrapped ? 1 : 0)
                if level > InfoPlistLimits.maximumDepth {
                    return InfoPlistError(.nestedTooDeep(limit: InfoPlistLimits.maximumDepth, location: location(of: open)), key: rootKey)
                }
                objects += 1
                if objects > InfoPlistLimits.maximumObjects { return InfoPlistError(.tooManyObjects(limit: InfoPlistLimits.maximumObjects)) }
                if level == 2, !end.selfClosing, element(at: open + 1, isNamed: Self.keyName) { rootKey = text(from: index) }
                if !end.selfClosing { depth += 1 }
            }
        }
        return nil
    }

    /// The end of a tag, or why its extent is in doubt.
    enum TagEnd {
        /// The tag's `>`, and whether a `/` comes right before it.
        case end(Int, selfClosing: Bool)
        /// What makes the tag ambiguous.
        case problem(String)

        var position: Int {
            if case .end(let position, _) = self { return position }
            return 0
        }

        var selfClosing: Bool {
            if case .end(_, let selfClosing) = self { return selfClosing }
            return false
        }
    }

    /// Finds the `>` that ends a tag whose name starts at `start`, or `nil` when the file ends first
    /// (nothing after it can nest, and Foundation reports the unfinished tag).
    ///
    /// A parser that ignores quotes and one that honours them end a tag at the same `>` only when no
    /// quoted value holds `>`; and a `<` inside a tag could start a new one for some parsers.
    private func tagEnd(from start: Int) -> TagEnd? {
        var quote: UInt8?
        var index = start
        while index < units.count {
            let unit = units[index]
            if let open = quote {
                if unit == open {
                    quote = nil
                } else if unit == Self.lessThan || unit == Self.greaterThan {
                    return .problem(#"a ">" or "<" inside quotes in a tag"#)
                }
            } else if unit == UInt8(ascii: "\"") || unit == UInt8(ascii: "'") {
                quote = unit
            } else if unit == Self.lessThan {
                return .problem(#"a "<" inside a tag"#)
            } else if unit == Self.greaterThan {
                return .end(index, selfClosing: index > start && units[index - 1] == Self.slash)
            }
            index += 1
        }
        return nil
    }

    /// Skips a comment, a CDATA section or a declaration that starts with `<!` at `open`.
    private func skipDeclaration(at open: Int) -> TagEnd? {
        if units[open...].starts(with: Array("<!--".utf8)) {
            // "<!-->" and "<!--->" end at once for some parsers and not for others: refused. Otherwise a
            // comment ends at the first "-->", as Foundation's scanner ends it, "--" inside or not (divider
            // comments such as "<!-- ------ -->" are common in hand-kept plists).
            let body = open + 4
            if body < units.count, units[body] == Self.greaterThan || units[body...].starts(with: Array("->".utf8)) {
                return .problem(#"a malformed comment ("<!-->" and "<!--->" are read differently by different parsers)"#)
            }
            guard let close = find(Array("-->".utf8), from: body) else { return nil }
            return .end(close + 2, selfClosing: true)
        }
        if units[open...].starts(with: Array("<![CDATA[".utf8)) {
            guard let close = find(Array("]]>".utf8), from: open + 9) else { return nil }
            return .end(close + 2, selfClosing: true)
        }
        // `<!DOCTYPE plist PUBLIC "…" "…">`: no internal subset, no markup, no quoted ">".
        var quote: UInt8?
        for index in (open + 2)..<units.count {
            let unit = units[index]
            if let open = quote {
                if unit == open { quote = nil } else if unit == Self.greaterThan { return .problem(#"a ">" inside quotes in a declaration"#) }
            } else if unit == UInt8(ascii: "\"") || unit == UInt8(ascii: "'") {
                quote = unit
            } else if unit == UInt8(ascii: "[") || unit == Self.lessThan {
                return .problem(#"a "[" or "<" inside a declaration"#)
            } else if unit == Self.greaterThan {
                return .end(index, selfClosing: true)
            }
        }
        return nil
    }

    /// Whether the element whose tag starts at `start` is named `name`: the name, then a space, `/` or `>`.
    private func element(at start: Int, isNamed name: [UInt8]) -> Bool {
        let end = start + name.count
        guard end < units.count, units[start..<end].elementsEqual(name) else { return false }
        let after = units[end]
        return after == 0x20 || after == 0x09 || after == 0x0D || after == 0x0A || after == Self.slash || after == Self.greaterThan
    }

    private static let plistName = Array("plist".utf8), keyName = Array("key".utf8), processingEnd = Array("?>".utf8)

    /// The text from `start` to the next `<`, when it is short, printable ASCII without entities: a
    /// key to name in an error. `nil` otherwise.
    private func text(from start: Int) -> String? {
        let end = units[start...].firstIndex(of: Self.lessThan) ?? units.count
        let text = units[start..<end]
        guard text.count <= 100, text.allSatisfy({ (0x20..<0x7F).contains($0) && $0 != UInt8(ascii: "&") }) else { return nil }
        return String(decoding: text, as: UTF8.self)
    }

    private func malformed(_ detail: String) -> InfoPlistError {
        InfoPlistError(.malformed(detail))
    }
}
