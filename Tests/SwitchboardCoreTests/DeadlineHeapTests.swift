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
        heap.dropTombstonesAtTop()
        var order: [Int] = []
        while heap.first != nil {
            heap.dropTombstonesAtTop()
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
        heap.dropTombstonesAtTop()
        #expect(heap.removeFirst().action != nil)
        heap.dropTombstonesAtTop()
        #expect(heap.removeFirst().target === target && heap.live == 0 && heap.first == nil)
    }
}
