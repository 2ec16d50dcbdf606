import BackgroundBudgetExplorer
import BudgetLock

extension ScenarioCommand {
    /// The size of an exhaustive search, estimated before it starts from its first level: how many
    /// sequences it tried, how many new states it kept to extend, and how long one sequence took.
    ///
    /// Level `k` is taken to try `first × branching^(k-1)` sequences, each as costly as one of the
    /// first level: a deeper sequence replays a longer prefix, and pruning removes more, so the count
    /// is an upper bound and the time per sequence a lower one.
    struct TreeEstimate {
        /// Sequences the first level tried.
        var first: Double
        /// New states the first level kept to extend.
        var branching: Double
        /// Wall-clock seconds one sequence of the first level took.
        var secondsPerSequence: Double
        /// The depth asked for.
        var depth: Int
        /// How many pieces the search runs in at once (shards times jobs): each runs the levels before
        /// the last in full and its share of the last.
        var pieces = 1

        /// Runs the first level of `explorer`'s exhaustive search (without shrinking anything).
        init(_ explorer: Explorer, depth: Int) {
            self.depth = depth
            let started = ContinuousClock.now
            var seen: Set<UInt64> = [explorer.session().fingerprint()]
            var tried = 0
            for entry in explorer.menu.entries {
                var session = explorer.session()
                guard session.perform(entry.event) != nil else { continue }
                tried += 1
                if session.violation() == nil { seen.insert(session.fingerprint()) }
            }
            first = Double(tried)
            branching = Double(seen.count - 1)
            secondsPerSequence = started.duration(to: .now).seconds / Double(max(tried, 1))
        }

        /// The estimated sequences of a search to `depth`.
        func sequences(to depth: Int) -> Double {
            var total = 0.0, level = first
            for _ in 0..<max(depth, 0) {
                total += level
                level *= branching
            }
            return total
        }

        /// The estimated sequences of the search asked for.
        var sequences: Double { sequences(to: depth) }

        /// The estimated wall-clock seconds of the search asked for, its pieces running at once.
        var seconds: Double { seconds(to: depth) }

        /// The estimated wall-clock seconds of a search to `depth`: each piece runs the levels before
        /// the last in full and its share of the last.
        func seconds(to depth: Int) -> Double {
            let before = sequences(to: depth - 1)
            return (before + (sequences(to: depth) - before) / Double(max(pieces, 1))) * secondsPerSequence
        }

        /// The deepest search, up to the one asked for, estimated to finish within `seconds`.
        func deepestWithin(_ seconds: Double) -> Int? {
            (1...max(depth, 1)).last { self.seconds(to: $0) <= seconds }
        }
    }

    /// The progress line of `explore` on standard error: what the search is doing, how many
    /// sequences it tried, how fast, what failed so far and the time left; written at most four
    /// times a second. Called from the search's thread only, but the explorer's hooks are
    /// `@Sendable`, so its state is behind a lock; the line is written after the lock is released.
    final class ProgressMeter: Sendable {
        /// What the search is doing.
        enum Phase: Sendable {
            case idle
            case walks(seed: Int, of: Int, before: Int, failingSeeds: Int)
            case exhaustive(depth: Int, estimate: Double?)
        }

        private struct State: Sendable {
            var phase = Phase.idle
            var tried = 0
            var failing = 0
            var lastWrite: ContinuousClock.Instant?
            /// When the phase began: the exhaustive search's rate is over its own time.
            var phaseStarted = ContinuousClock.now
        }

        private let started: ContinuousClock.Instant
        private let limit: Duration?
        private let write: (@Sendable (String) -> Void)?
        private let state = LockedValue(State())

        init(started: ContinuousClock.Instant, limit: Duration?, write: (@Sendable (String) -> Void)?) {
            self.started = started
            self.limit = limit
            self.write = write
        }

        /// The phase; setting it writes the line at once.
        var phase: Phase {
            get { state.withLock { $0.phase } }
            set {
                state.withLock {
                    $0.phase = newValue
                    $0.tried = 0
                    $0.failing = 0
                    $0.lastWrite = nil
                    $0.phaseStarted = .now
                }
                tick()
            }
        }

        /// A seed's walks so far.
        func walked(_ tried: Int, failing: Int) {
            state.withLock { $0.tried = tried; $0.failing = failing }
            tick()
        }

        /// The exhaustive search's sequences as of its last finished level.
        func searched(_ tried: Int, failing: Int) {
            state.withLock { $0.tried = tried; $0.failing = failing }
            tick()
        }

        /// Writes `text` as it is.
        func say(_ text: String) {
            write?(text)
        }

        /// Writes the line if a quarter of a second passed since the last one.
        func tick() {
            guard let write else { return }
            let now = ContinuousClock.now
            let line: String? = state.withLock { current in
                if let last = current.lastWrite, last.duration(to: now) < .milliseconds(250) { return nil }
                current.lastWrite = now
                return Self.line(current, elapsed: started.duration(to: now).seconds,
                                 inPhase: current.phaseStarted.duration(to: now).seconds, limit: limit?.seconds)
            }
            if let line { write("\r" + line + "\u{1B}[K") }
        }

        private static func line(_ state: State, elapsed: Double, inPhase: Double, limit: Double?) -> String {
            func left(_ estimate: Double?) -> String {
                var seconds = estimate
                if let limit { seconds = min(seconds ?? .infinity, max(limit - elapsed, 0)) }
                return seconds.map { $0.isFinite ? ", \(roughDuration($0)) left" : "" } ?? ""
            }
            switch state.phase {
            case .idle:
                return "explore: starting"
            case .walks(let seed, let seeds, let before, let failingSeeds):
                let tried = before + state.tried
                let rate = elapsed > 0 ? Double(tried) / elapsed : 0
                let done = Double(seed - 1) / Double(max(seeds, 1))
                let failing = failingSeeds + (state.failing > 0 ? 1 : 0)
                return "explore: seed \(seed)/\(seeds), \(tried) sequences, \(roughCount(rate))/s, "
                    + "\(failing) failing seed\(failing == 1 ? "" : "s")" + left(done > 0 ? elapsed * (1 - done) / done : nil)
            case .exhaustive(let depth, let estimate):
                let rate = inPhase > 0 ? Double(state.tried) / inPhase : 0
                let remaining = estimate.flatMap { rate > 0 ? max($0 - Double(state.tried), 0) / rate : nil }
                return "explore: exhaustive search to depth \(depth), \(state.tried)"
                    + (estimate.map { " of about \(roughCount($0))" } ?? "") + " sequences, \(roughCount(rate))/s, "
                    + "\(state.failing) failing" + left(remaining)
            }
        }
    }
}
