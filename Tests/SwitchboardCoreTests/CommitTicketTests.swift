import Synchronization
import Testing
@testable import SwitchboardCore

/// A publish's ticket on the group commit: answered once, by the commit or
/// by its deadline, and a message the store did not keep is a failure for
/// the publisher but nil for presence and acts.
@Suite("Commit ticket")
struct CommitTicketTests {
    private static let stored = EncodedMessage(Message(id: 7, room: "r", user: "u", text: "hi", kind: .message, ts: 1))

    @Test func aMessageTheStoreDidNotKeepIsAFailureForItsPublisherAndNilForOthers() {
        let published = Mutex<[Result<EncodedMessage, SwitchboardError>]>([])
        let message = CommitTicket(.message { result in published.withLock { $0.append(result) } })
        #expect(message.begin())
        message.finish(.success(nil))
        let answers = published.withLock { $0 }
        #expect(answers.count == 1)
        guard case .failure(let error)? = answers.first else { Issue.record("a message not kept was answered \(answers)"); return }
        #expect(error == .storeFailure("the store did not keep the message"))

        let announced = Mutex<[Result<EncodedMessage?, SwitchboardError>]>([])
        let presence = CommitTicket(.stored { result in announced.withLock { $0.append(result) } })
        #expect(presence.begin())
        presence.finish(.success(nil))
        guard case .success(nil)? = announced.withLock({ $0.first }) else { Issue.record("nil was not passed on"); return }
    }

    @Test func theStoredMessageIsPassedOnOnce() {
        let published = Mutex<[Int64]>([])
        let ticket = CommitTicket(.message { result in if case .success(let message) = result { published.withLock { $0.append(message.id) } } })
        #expect(ticket.begin())
        ticket.finish(.success(Self.stored))
        ticket.finish(.success(Self.stored))
        #expect(ticket.expire(.storeTimedOut(seconds: 5)) == false)
        #expect(published.withLock { $0 } == [7])
        #expect(ticket.isAnswered)
    }

    @Test func theDeadlineAnswersFirstAndTheDraftIsNeverCommitted() {
        let answers = Mutex<[Result<EncodedMessage, SwitchboardError>]>([])
        let ticket = CommitTicket(.message { result in answers.withLock { $0.append(result) } })
        #expect(ticket.expire(.storeTimedOut(seconds: 5)))
        #expect(ticket.begin() == false)  // the commit skips it
        ticket.finish(.success(Self.stored))
        let all = answers.withLock { $0 }
        #expect(all.count == 1)
        guard case .failure(let error)? = all.first else { Issue.record("the deadline was not the answer: \(all)"); return }
        #expect(error == .storeTimedOut(seconds: 5))
    }
}
