extension StateStore {
    /// What ``StateStore/load()`` found: the value, which copy it came from, and every file it passed
    /// over and why.
    ///
    /// ```swift
    /// let loaded = try store.load()
    /// switch loaded.source {
    /// case .current: break
    /// case .previous: logger.warning("restored the previous copy: \(loaded.issues)")
    /// case .nothingSaved: break                       // first launch
    /// }
    /// let draft = loaded.value ?? Draft()
    /// ```
    public struct LoadResult: Sendable {
        /// Which saved copy a value came from.
        ///
        /// The set is closed: a store keeps a current and a previous copy and nothing else, so a `switch`
        /// over it needs no `default`.
        public enum Source: Sendable, Hashable {
            /// The current file, `name.state`: the last completed save.
            case current
            /// The previous copy, `name.state.previous`, because the current file was missing or could
            /// not be used (``LoadResult/issues`` says why).
            case previous
            /// Nothing has been saved: there are no state files. ``LoadResult/value`` is `nil`.
            case nothingSaved
        }

        /// The saved value, or `nil` when nothing has been saved.
        public var value: Value?
        /// Which copy ``value`` came from.
        public var source: Source
        /// The files that could not be used, current file first, each with what was wrong and where
        /// it is now. Empty when every file was intact.
        public var issues: [StateStoreIssue]

        /// Creates a result.
        /// - Parameters:
        ///   - value: The saved value, if any.
        ///   - source: Which copy it came from.
        ///   - issues: The files that could not be used.
        public init(value: Value?, source: Source, issues: [StateStoreIssue] = []) {
            self.value = value
            self.source = source
            self.issues = issues
        }

        /// Whether the value is not from the last completed save: the current file could not be used
        /// and the previous copy was.
        public var isRecovered: Bool { source == .previous }
    }
}

extension StateStore.LoadResult: Equatable where Value: Equatable {}
extension StateStore.LoadResult: Hashable where Value: Hashable {}
