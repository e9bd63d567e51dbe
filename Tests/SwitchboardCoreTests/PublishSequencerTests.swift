import Synchronization
import Testing
@testable import SwitchboardCore

/// A speaker's publishes reach the bus in the order taken, whatever order the hook answers in.
@Suite struct PublishSequencerTests {
    @Test func answersInAnyOrderRunInTicketOrder() {
        let sequencer = PublishSequencer()
        let ran = Mutex<[String]>([])
        let tickets = (0..<4).map { _ in sequencer.ticket("lobby/luke") }
        let other = sequencer.ticket("lobby/han")
        sequencer.finish("lobby/luke", tickets[2]) { ran.withLock { $0.append("luke 2") } }
        sequencer.finish("lobby/luke", tickets[1]) { ran.withLock { $0.append("luke 1") } }
        sequencer.finish("lobby/han", other) { ran.withLock { $0.append("han 0") } }
        #expect(ran.withLock { $0 } == ["han 0"], "luke's waits for his first; han's does not")
        sequencer.finish("lobby/luke", tickets[0]) { ran.withLock { $0.append("luke 0") } }
        #expect(ran.withLock { $0 } == ["han 0", "luke 0", "luke 1", "luke 2"])
        sequencer.finish("lobby/luke", tickets[3]) { ran.withLock { $0.append("luke 3") } }
        #expect(ran.withLock { $0 }.last == "luke 3")
        #expect(sequencer.ticket("lobby/luke") == 0, "a drained lane is forgotten")
    }
}
