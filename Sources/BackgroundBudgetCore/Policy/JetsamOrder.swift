import BudgetTime

/// The order jetsam purges the suspended apps of one band in (``BudgetPolicy/jetsamOrderWithinBand``).
///
/// xnu keeps each jetsam band as a list: a process that enters the band is appended at its tail, and
/// the killer takes processes from the head, so within a band the process that has been there longest
/// goes first ([S72][S101]). Apple documents no footprint order.
///
/// The set is closed, so this is a plain enum: a `switch` over it needs no `default`.
public enum JetsamOrder: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Largest footprint first, least recently used first among equals. The model's assumption, kept
    /// as the default: no source orders jetsam victims by size within a band.
    case largestFootprint
    /// Least recently used first (the app that left the foreground longest ago), the largest footprint
    /// first among equals: xnu's order within a band, which takes the process longest in the band
    /// first [S101].
    case leastRecentlyUsed

    /// The number that stands for the order in ``BudgetPolicy/setting(_:to:)`` and scenario files:
    /// 0 for ``largestFootprint``, 1 for ``leastRecentlyUsed``.
    public var number: Double {
        switch self {
        case .largestFootprint: 0
        case .leastRecentlyUsed: 1
        }
    }

    /// The order a number stands for (see ``number``), or `nil` for any other number.
    /// - Parameter number: 0 or 1.
    public init?(number: Double) {
        guard let order = Self.allCases.first(where: { $0.number == number }) else { return nil }
        self = order
    }

    /// The order's name.
    public var description: String { rawValue }
}
