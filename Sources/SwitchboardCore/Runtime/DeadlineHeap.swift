/// The deadlines of a ``DeadlineScheduler``: a binary min-heap by deadline
/// (then by the order scheduled). Not thread-safe: lives under the
/// scheduler's lock, and is changed through one mutating call at a time (one
/// exclusivity check a call, not one an element).
///
/// A cancelled target leaves a tombstone where it was (its reference let
/// go, its slot -1): cancelling is a store, not a removal, so a long poll
/// that answers pays no sifting on the thread that serves it. Tombstones
/// leave on the scheduler's thread (``dropTombstones()``): from the top,
/// whatever their deadline, and all at once when they outnumber the live
/// entries, in one pass and a rebuild of the heap (a few instructions
/// each, where one taken from the top costs a sift through the heap's
/// height). The rest wait until their deadline reaches the top (at most
/// requests a second times the longest `wait`, 48 bytes each).
struct DeadlineHeap {
    struct Entry {
        var deadline: UInt64
        var sequence: UInt64
        var action: (@Sendable () -> Void)?
        var target: (any DeadlineTarget)?

        var isTombstone: Bool { action == nil && target == nil }
    }

    private var entries: [Entry] = []
    private var sequence: UInt64 = 0
    /// Entries that are not tombstones.
    private(set) var live = 0

    /// The earliest entry, tombstone or not.
    var first: Entry? { entries.first }

    /// Adds an action or a target; true when it is the earliest now.
    mutating func push(deadline: UInt64, action: (@Sendable () -> Void)?, target: (any DeadlineTarget)?) -> Bool {
        if let target { cancel(target) }
        sequence += 1
        entries.append(Entry(deadline: deadline, sequence: sequence, action: action, target: target))
        live += 1
        let index = siftUp(from: entries.count - 1)
        return index == 0
    }

    /// Leaves a tombstone where `target` is; nothing if it is not here.
    mutating func cancel(_ target: any DeadlineTarget) {
        let slot = target.deadlineSlot
        guard slot >= 0, slot < entries.count, entries[slot].target === target else { return }
        target.deadlineSlot = -1
        entries[slot].target = nil
        live -= 1
    }

    /// Entries, tombstones included.
    var count: Int { entries.count }

    /// Fewest tombstones removed in one pass rather than from the top.
    static let sweepFloor = 64

    /// Removes tombstones so that `first` is a live entry or nil: all of them
    /// in one pass when they outnumber the live entries (at least
    /// ``sweepFloor``), otherwise those at the top.
    ///
    /// Why: every long poll answered within its first second leaves one
    /// (its wake-up at 1 s, cancelled), so under load the heap is mostly
    /// tombstones, and taking each from the top sifted the last entry down
    /// the heap's whole height: 1,466 instructions an answered poll with
    /// 100 of them closed loop (callgrind), more the busier the server.
    mutating func dropTombstones() {
        let dead = entries.count - live
        if dead >= Self.sweepFloor, dead > live { sweep() }
        while let top = entries.first, top.isTombstone { _ = removeFirst() }
    }

    /// Removes every tombstone and makes the rest a heap again (Floyd's
    /// bottom-up build: linear in the entries), each target told its slot.
    private mutating func sweep() {
        entries.removeAll { $0.isTombstone }
        for index in entries.indices { entries[index].target?.deadlineSlot = index }
        var parent = entries.count / 2
        while parent > 0 {
            parent -= 1
            siftDown(from: parent)
        }
    }

    /// Removes and returns the earliest entry; its target's slot is then -1.
    mutating func removeFirst() -> Entry {
        let first = entries[0]
        if let target = first.target { target.deadlineSlot = -1 }
        if !first.isTombstone { live -= 1 }
        let last = entries.removeLast()
        if !entries.isEmpty {
            entries[0] = last
            last.target?.deadlineSlot = 0
            siftDown(from: 0)
        }
        return first
    }

    /// Empties the heap; every target's slot is then -1.
    mutating func removeAll() {
        for entry in entries { entry.target?.deadlineSlot = -1 }
        entries.removeAll()
        live = 0
    }

    private func precedes(_ a: Int, _ b: Int) -> Bool {
        (entries[a].deadline, entries[a].sequence) < (entries[b].deadline, entries[b].sequence)
    }

    private mutating func siftUp(from index: Int) -> Int {
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(child, parent) else { break }
            swapEntries(child, parent)
            child = parent
        }
        entries[child].target?.deadlineSlot = child
        return child
    }

    private mutating func siftDown(from index: Int) {
        var parent = index
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < entries.count, precedes(left, smallest) { smallest = left }
            if right < entries.count, precedes(right, smallest) { smallest = right }
            if smallest == parent { return }
            swapEntries(parent, smallest)
            parent = smallest
        }
    }

    /// Swaps two entries, telling their targets where they are now.
    private mutating func swapEntries(_ a: Int, _ b: Int) {
        entries.swapAt(a, b)
        entries[a].target?.deadlineSlot = a
        entries[b].target?.deadlineSlot = b
    }
}
