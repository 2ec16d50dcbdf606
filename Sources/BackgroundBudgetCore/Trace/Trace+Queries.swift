import BudgetTime

/// Typed queries on a ``Trace``: entries picked by ``TraceEvent/Kind/Tag`` instead of by
/// ``TraceEvent/eventName`` string, so that a misspelt kind does not compile where a misspelt name
/// would silently match nothing.
///
/// ```swift
/// #expect(system.trace.first(.expirationHandlerCalled)?.time == .seconds(35))
/// #expect(system.trace.events(of: .exit).map(\.reason) == ["backgroundTaskExpired"])
/// #expect(system.trace.callbacks(for: app.id).last == .didEnterBackground)
/// ```
extension Trace {
    /// The entries of one kind, for one app or for all.
    ///
    /// ```swift
    /// let exits = system.trace.events(of: .exit, for: app.id)
    /// ```
    /// - Parameters:
    ///   - tag: The kind of entry.
    ///   - app: The app; every app when `nil`.
    public func events(of tag: TraceEvent.Kind.Tag, for app: AppID? = nil) -> [TraceEvent] {
        events.filter { $0.kind.tag == tag && (app == nil || $0.app == app) }
    }

    /// The entries of one kind: the earlier spelling of ``events(of:for:)``.
    @available(*, deprecated, renamed: "events(of:for:)")
    public func events(_ tag: TraceEvent.Kind.Tag, for app: AppID? = nil) -> [TraceEvent] {
        events(of: tag, for: app)
    }

    /// When each entry of one kind happened, in order.
    ///
    /// ```swift
    /// #expect(system.trace.instants(of: .expirationHandlerCalled) == [.seconds(35)])
    /// ```
    public func instants(of tag: TraceEvent.Kind.Tag, for app: AppID? = nil) -> [BudgetInstant] {
        events(of: tag, for: app).map(\.time)
    }

    /// The kinds (with their values) of the entries of one kind, in order.
    ///
    /// ```swift
    /// #expect(system.trace.kinds(of: .exit) == [.exit(.backgroundTaskExpired, code: 0x2182_bad2)])
    /// ```
    public func kinds(of tag: TraceEvent.Kind.Tag, for app: AppID? = nil) -> [TraceEvent.Kind] {
        events(of: tag, for: app).map(\.kind)
    }

    /// The first entry of one kind, if any.
    ///
    /// ```swift
    /// let exit = try #require(system.trace.first(.exit))
    /// ```
    public func first(_ tag: TraceEvent.Kind.Tag, for app: AppID? = nil) -> TraceEvent? {
        events.first { $0.kind.tag == tag && (app == nil || $0.app == app) }
    }

    /// The last entry of one kind, if any.
    ///
    /// ```swift
    /// #expect(system.trace.last(.stateChange, for: app.id)?.state == .suspended)
    /// ```
    public func last(_ tag: TraceEvent.Kind.Tag, for app: AppID? = nil) -> TraceEvent? {
        events.last { $0.kind.tag == tag && (app == nil || $0.app == app) }
    }

    /// Whether any entry is of one of the kinds.
    ///
    /// ```swift
    /// #expect(!system.trace.contains(any: .exit, .expirationHandlerCalled))
    /// ```
    public func contains(any tags: TraceEvent.Kind.Tag..., for app: AppID? = nil) -> Bool {
        events.contains { tags.contains($0.kind.tag) && (app == nil || $0.app == app) }
    }

    /// How many entries are of one kind.
    ///
    /// ```swift
    /// #expect(system.trace.count(of: .fetchStarted, for: app.id) == 3)
    /// ```
    public func count(of tag: TraceEvent.Kind.Tag, for app: AppID? = nil) -> Int {
        events.reduce(0) { $0 + ($1.kind.tag == tag && (app == nil || $1.app == app) ? 1 : 0) }
    }
}
