import Synchronization
import Testing
@testable import MicroHTTPD

/// The daemon loop's own pacing of wake-ups: a turn at a time, oldest
/// first, with appends from any thread between turns and none lost at the close.
@Suite("Resume turns")
struct ResumeTurnsTests {
    final class Item: Sendable {
        let number: Int
        init(_ number: Int) { self.number = number }
    }

    final class Taken: Sendable {
        private let taken = Mutex<[Int]>([])
        func append(_ number: Int) { taken.withLock { $0.append(number) } }
        var numbers: [Int] { taken.withLock { $0 } }
    }

    /// The numbers of one turn, and whether the turn said more were waiting.
    func turn(_ turns: ResumeTurns<Item>) -> ([Int], Bool) {
        var taken: [Int] = []
        let more = turns.takeTurn { taken.append($0.number) }
        return (taken, more)
    }

    @Test func takesATurnAtATimeOldestFirst() {
        let turns = ResumeTurns<Item>(turnSize: 3)
        for number in 0..<7 { #expect(turns.append(Item(number))) }
        #expect(turn(turns) == ([0, 1, 2], true))
        #expect(turn(turns) == ([3, 4, 5], true))
        #expect(turn(turns) == ([6], false))
        #expect(turn(turns) == ([], false))
    }

    @Test func saysWhetherATurnWouldTakeAnything() {
        let turns = ResumeTurns<Item>(turnSize: 2)
        #expect(!turns.hasQueued)
        for number in 0..<3 { _ = turns.append(Item(number)) }
        #expect(turns.hasQueued, "appended, not yet taken")
        #expect(turn(turns) == ([0, 1], true))
        #expect(turns.hasQueued, "the rest of the batch taken from")
        #expect(turn(turns) == ([2], false))
        #expect(!turns.hasQueued)
    }

    @Test func appendsDuringTurnsComeAfterEverythingQueuedBefore() {
        let turns = ResumeTurns<Item>(turnSize: 2)
        for number in 0..<3 { _ = turns.append(Item(number)) }
        #expect(turn(turns) == ([0, 1], true))
        _ = turns.append(Item(3))
        _ = turns.append(Item(4))
        #expect(turn(turns) == ([2], false), "a turn ends the batch it was taken from")
        #expect(turn(turns) == ([3, 4], false))
        _ = turns.append(Item(5))
        #expect(turn(turns) == ([5], false))
    }

    @Test func closeTakesEverythingStillQueuedAndRefusesLaterAppends() {
        let turns = ResumeTurns<Item>(turnSize: 1)
        for number in 0..<3 { _ = turns.append(Item(number)) }
        #expect(turn(turns) == ([0], true))
        _ = turns.append(Item(3))
        var closed: [Int] = []
        turns.close { closed.append($0.number) }
        #expect(closed == [1, 2, 3])
        #expect(!turns.append(Item(4)), "after the close the caller resumes at once")
        #expect(turn(turns) == ([], false))
    }

    @Test func appendsFromManyThreadsAreEachTakenOnce() async {
        let turns = ResumeTurns<Item>(turnSize: 50)
        let taken = Taken()
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<4 {
                group.addTask { for number in 0..<500 { _ = turns.append(Item(thread * 1_000 + number)) } }
            }
            group.addTask {
                for _ in 0..<200 { _ = turns.takeTurn { item in taken.append(item.number) } }
            }
        }
        turns.close { item in taken.append(item.number) }
        let numbers = taken.numbers
        #expect(numbers.count == 2_000)
        #expect(Set(numbers).count == 2_000)
        for thread in 0..<4 {
            let own = numbers.filter { $0 / 1_000 == thread }
            #expect(own == own.sorted(), "one thread's appends are taken in their order")
        }
    }
}
