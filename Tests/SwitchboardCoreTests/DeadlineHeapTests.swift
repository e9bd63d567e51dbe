import Testing
@testable import SwitchboardCore

/// The scheduler's heap with no thread: order, slots and tombstones.
@Suite("Deadline heap")
struct DeadlineHeapTests {
    final class Target: DeadlineTarget, @unchecked Sendable {
        let name: Int
        var deadlineSlot = -1
        init(_ name: Int) { self.name = name }
        func deadlinePassed() {}
    }

    /// A cancellation leaves a tombstone: counted out of `live` at once, its
    /// target let go, and dropped from the top whatever its deadline.
    @Test func aCancelledTargetIsATombstoneUntilItReachesTheTop() {
        var heap = DeadlineHeap()
        let targets = (0..<8).map(Target.init)
        for target in targets.reversed() {
            _ = heap.push(deadline: UInt64(100 + target.name), action: nil, target: target)
        }
        #expect(heap.live == 8)
        #expect(targets.allSatisfy { $0.deadlineSlot >= 0 })
        for name in [0, 1, 5] { heap.cancel(targets[name]) }
        heap.cancel(targets[5])  // twice: nothing more
        #expect(heap.live == 5 && [0, 1, 5].allSatisfy { targets[$0].deadlineSlot == -1 })
        heap.dropTombstones()
        var order: [Int] = []
        while heap.first != nil {
            heap.dropTombstones()
            guard heap.first != nil else { break }
            order.append((heap.removeFirst().target as? Target)!.name)
        }
        #expect(order == [2, 3, 4, 6, 7])
        #expect(heap.live == 0 && targets.allSatisfy { $0.deadlineSlot == -1 })
    }

    /// A target scheduled again moves: its first entry becomes a tombstone.
    @Test func aTargetScheduledAgainHasOneLiveEntry() {
        var heap = DeadlineHeap()
        let target = Target(1)
        let first = heap.push(deadline: 50, action: nil, target: target)
        let second = heap.push(deadline: 60, action: {}, target: nil)
        let again = heap.push(deadline: 70, action: nil, target: target)
        #expect(first && !second && !again)
        #expect(heap.live == 2)
        heap.dropTombstones()
        #expect(heap.removeFirst().action != nil)
        heap.dropTombstones()
        #expect(heap.removeFirst().target === target && heap.live == 0 && heap.first == nil)
    }

    /// Tombstones that outnumber the live entries all leave in one pass,
    /// wherever they are: a heap of answered long polls is not emptied one
    /// sift at a time. The rest stay a heap, each target knowing its slot.
    @Test func tombstonesThatOutnumberTheLiveLeaveAtOnce() {
        var heap = DeadlineHeap()
        let targets = (0..<300).map(Target.init)
        var generator = SystemRandomNumberGenerator()
        for target in targets.shuffled(using: &generator) {
            _ = heap.push(deadline: UInt64(1_000 + target.name), action: nil, target: target)
        }
        _ = heap.push(deadline: 1_150, action: {}, target: nil)
        let kept = targets.filter { $0.name % 3 == 1 }  // the earliest, 0, is cancelled: the top is a tombstone
        for target in targets where target.name % 3 != 1 { heap.cancel(target) }
        #expect(heap.live == kept.count + 1 && heap.count == 301)
        heap.dropTombstones()
        #expect(heap.count == heap.live && heap.live == kept.count + 1)
        // Each slot is where its target is: cancelling through it leaves a tombstone in the right place.
        heap.cancel(kept[10])
        #expect(heap.live == kept.count && kept[10].deadlineSlot == -1)
        var order: [Int] = []
        while true {
            heap.dropTombstones()
            guard heap.first != nil else { break }
            let entry = heap.removeFirst()
            order.append((entry.target as? Target)?.name ?? -1)
        }
        let expected = kept.map(\.name).filter { $0 != kept[10].name }
        #expect(order == Array(expected.prefix { $0 < 150 }) + [-1] + expected.filter { $0 > 150 })
        #expect(heap.live == 0 && heap.count == 0 && targets.allSatisfy { $0.deadlineSlot == -1 })
    }

    /// Fewer tombstones than live entries: only those at the top leave.
    @Test func aFewTombstonesWaitForTheTop() {
        var heap = DeadlineHeap()
        let targets = (0..<200).map(Target.init)
        for target in targets { _ = heap.push(deadline: UInt64(target.name), action: nil, target: target) }
        for name in [0, 1, 2, 50, 150] { heap.cancel(targets[name]) }
        heap.dropTombstones()
        #expect(heap.count == 197 && heap.live == 195 && (heap.first?.target as? Target)?.name == 3)
    }
}
