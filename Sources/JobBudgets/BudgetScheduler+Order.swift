/// The order budgets that fall due together stop in, and the lists that let a scope's shutdown find
/// its own budgets.
///
/// Budgets that fall due together (a shutdown's, a scope's shutdown's, or one hard-stop instant)
/// stop oldest-first: in the order they were requested, whatever slots they hold. The scheduler hands
/// out the slot freed last first, so from a scheduler's second batch of work on, slot order is the
/// reverse of request order; and stopping thousands of tasks newest-first costs the Swift runtime
/// many times what oldest-first does (the job-runner budgets article has the figures). Each record keeps
/// its request number (its `generation`), so the order costs no memory.
extension BudgetScheduler.State {
    /// How many requests ago a budget was granted: larger is older. Correct while the live budgets'
    /// request numbers span less than 2^32 requests (model assumption: no budget outlives four
    /// billion later ones).
    @inline(__always)
    func age(of slot: Int) -> UInt32 {
        requests &- records[slot].generation
    }

    /// The live budgets of a scope, from its own lists: those without a parent, those whose parent is
    /// in another scope, and, under each, its descendants in the scope. Touches only the scope's
    /// budgets (and their children in other scopes' lists: none are walked into).
    func members(of scope: UInt32) -> [Int] {
        guard let entry = scopes[scope] else { return [] }
        var pending = entry.foreignMembers.map(Int.init)
        var next = entry.firstMember
        while next != 0 {
            pending.append(Int(next - 1))
            next = extras[Int(records[Int(next - 1)].extras - 1)].nextSibling
        }
        var members: [Int] = []
        members.reserveCapacity(pending.count)
        while let slot = pending.popLast() {
            members.append(slot)
            var child = firstChild(of: slot)
            while child != 0 {
                if self.scope(of: Int(child - 1)) == scope { pending.append(Int(child - 1)) }
                child = extras[Int(records[Int(child - 1)].extras - 1)].nextSibling
            }
        }
        return members
    }

    /// Takes a removed budget out of its scope's list of budgets whose parent is in another scope.
    mutating func dropForeignMember(_ slot: Int, of scope: UInt32) {
        guard let index = scopes[scope]?.foreignMembers.firstIndex(of: UInt32(slot)) else { return }
        scopes[scope]!.foreignMembers.swapAt(index, scopes[scope]!.foreignMembers.count - 1)
        scopes[scope]!.foreignMembers.removeLast()
    }

    /// The live children of a budget, oldest first (the list links them newest first).
    func childrenOldestFirst(of slot: Int) -> [Int] {
        var children: [Int] = []
        var child = firstChild(of: slot)
        while child != 0 {
            children.append(Int(child - 1))
            child = extras[Int(records[Int(child - 1)].extras - 1)].nextSibling
        }
        children.reverse()
        return children
    }
}

extension BudgetScheduler {
    /// Stops found due in one pass, as groups: each group a budget whose own hard stop came, after its
    /// descendants. Puts the groups in order of hard stop, then of request (oldest first), keeping
    /// each group as it is (children before their parent); a pass that found them in that order (the
    /// usual case: the heap pops equal deadlines in the order they were set) costs one comparison per
    /// group.
    struct StopGroups {
        /// Per group: its top budget's hard stop, its age (see `State.age(of:)`), and where it ends
        /// in the list of stops.
        private var groups: [(stopAt: Int64, age: UInt32, end: Int)] = []
        private var isOrdered = true

        /// Records a group that ends at `end` in the list of stops.
        mutating func add(stopAt: Int64, age: UInt32, end: Int) {
            if let last = groups.last, (last.stopAt, ~last.age) > (stopAt, ~age) { isOrdered = false }
            groups.append((stopAt, age, end))
        }

        /// `stopped` with its groups in order.
        func ordered(_ stopped: [Stop]) -> [Stop] {
            guard !isOrdered else { return stopped }
            var starts = [0]
            for group in groups.dropLast() { starts.append(group.end) }
            let order = groups.indices.sorted { (groups[$0].stopAt, ~groups[$0].age) < (groups[$1].stopAt, ~groups[$1].age) }
            var result: [Stop] = []
            result.reserveCapacity(stopped.count)
            for index in order { result += stopped[starts[index]..<groups[index].end] }
            return result
        }
    }
}
