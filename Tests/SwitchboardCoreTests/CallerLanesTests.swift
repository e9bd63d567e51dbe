import Testing
@testable import SwitchboardCore

/// The store gate's and the media queue's lanes: callers in turns, each caller's work in order.
@Suite("Caller lanes")
struct CallerLanesTests {
    func drained(_ lanes: inout CallerLanes<UInt64, String>) -> [String] {
        var taken: [String] = []
        while let job = lanes.next() { taken.append(job) }
        return taken
    }

    @Test func oneCallerIsFirstInFirstOut() {
        var lanes = CallerLanes<UInt64, String>()
        for index in 0..<5 { lanes.append("a\(index)", for: 7) }
        #expect(lanes.count == 5)
        #expect(drained(&lanes) == ["a0", "a1", "a2", "a3", "a4"])
        #expect(lanes.count == 0 && lanes.next() == nil)
    }

    @Test func callersTakeTurnsInTheOrderTheyFirstAsked() {
        var lanes = CallerLanes<UInt64, String>()
        for job in ["a1", "a2", "a3"] { lanes.append(job, for: 1) }
        lanes.append("b1", for: 2)
        for job in ["c1", "c2"] { lanes.append(job, for: 3) }
        #expect(drained(&lanes) == ["a1", "b1", "c1", "a2", "c2", "a3"])
    }

    /// A caller whose line emptied goes to the back when it asks again.
    @Test func aCallerThatAsksAgainJoinsTheBackOfTheTurns() {
        var lanes = CallerLanes<UInt64, String>()
        lanes.append("a1", for: 1)
        lanes.append("b1", for: 2)
        lanes.append("b2", for: 2)
        #expect(lanes.next() == "a1")
        lanes.append("a2", for: 1)
        #expect(drained(&lanes) == ["b1", "a2", "b2"])
    }

    /// Long lines and many turns, taken while more arrive (past the points
    /// where the taken part of an array is dropped): every job once, each
    /// caller's in order, and no caller waits more than one turn of the others.
    @Test func aFloodAndAFewStayInOrderAndInTurns() {
        var lanes = CallerLanes<UInt64, String>()
        var taken: [String] = []
        for index in 0..<500 {
            lanes.append("flood\(index)", for: 1)
            if index % 50 == 0 { lanes.append("few\(index)", for: UInt64(2 + index % 3)) }
            if index % 3 == 0, let job = lanes.next() { taken.append(job) }
        }
        taken += drained(&lanes)
        #expect(taken.count == 510 && Set(taken).count == 510)
        let flood = taken.filter { $0.hasPrefix("flood") }
        #expect(flood == (0..<500).map { "flood\($0)" })
        // Each of the few is taken within a few jobs of when it was asked for.
        for index in stride(from: 0, to: 500, by: 50) {
            let position = taken.firstIndex(of: "few\(index)")!
            let floodBefore = taken[..<position].filter { $0.hasPrefix("flood") }.count
            #expect(floodBefore <= index / 3 + 3, "few\(index) taken after \(floodBefore) of the flood")
        }
    }

    @Test func removingAllGivesEveryJobInTurnsAndLeavesNone() {
        var lanes = CallerLanes<UInt64, String>()
        for job in ["a1", "a2"] { lanes.append(job, for: 1) }
        lanes.append("b1", for: 2)
        #expect(lanes.removeAll() == ["a1", "b1", "a2"])
        #expect(lanes.count == 0 && lanes.next() == nil)
    }
}
