import Testing
@testable import SwitchboardCore

@Suite("Pending stores (back-pressure)")
struct PendingStoresTests {
    @Test func readsAreHeldAtTheLimitAndGoThroughOnceHalfHaveDrained() {
        var pending = PendingStores(limit: 4)
        let first = pending.mayRead()
        for _ in 0..<4 { pending.submitted() }
        let atLimit = pending.mayRead()
        let threeLeft = pending.finished()
        let twoLeft = pending.finished()
        let oneLeft = pending.finished()
        let afterwards = pending.mayRead()
        #expect(first)
        #expect(!atLimit, "4 waiting: the read is held")
        #expect(!threeLeft, "3 waiting: still more than half")
        #expect(twoLeft, "2 waiting: the held read goes through")
        #expect(!oneLeft, "nothing was held any more")
        #expect(afterwards && pending.count == 1)
    }

    @Test func withoutAHeldReadFinishingNeverAsksForOne() {
        var pending = PendingStores(limit: 2)
        pending.submitted()
        let readNow = pending.finished()
        #expect(!readNow && pending.count == 0)
    }
}
