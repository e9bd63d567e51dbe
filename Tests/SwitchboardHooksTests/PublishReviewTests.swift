import Synchronization
import SwitchboardCore
import Testing

/// The publish hook's rule in Core, with a hook that answers what it is told (a unit test: no HTTP).
@Suite struct PublishReviewTests {
    final class ScriptedHook: PublishHook {
        let answer: Result<PublishVerdict, PublishHookFailure>
        let asked = Mutex(0)
        init(_ answer: Result<PublishVerdict, PublishHookFailure>) { self.answer = answer }
        func review(_ draft: MessageDraft, media: [String], completion: @escaping @Sendable (Result<PublishVerdict, PublishHookFailure>) -> Void) {
            asked.withLock { $0 += 1 }
            completion(answer)
        }
    }

    let draft = MessageDraft(room: "lobby", user: "luke", text: "hello", kind: .message)

    func check(_ answer: Result<PublishVerdict, PublishHookFailure>, failureAllows: Bool = false,
               as identity: Identity = .guest) -> (Result<MessageDraft, SwitchboardError>?, Int) {
        let hook = ScriptedHook(answer)
        let review = PublishReview(hook: hook, failureAllows: failureAllows, limits: MessageLimits(maxTextBytes: 10))
        let result = Mutex<Result<MessageDraft, SwitchboardError>?>(nil)
        review.check(draft, by: identity) { answer in result.withLock { $0 = answer } }
        return (result.withLock { $0 }, hook.asked.withLock { $0 })
    }

    @Test func allowDenyModify() throws {
        #expect(try check(.success(.allow)).0?.get() == draft)
        #expect(check(.success(.deny(reason: "spam"))).0 == .failure(.denied("spam")))
        #expect(try check(.success(.modify(text: "HELLO"))).0?.get().text == "HELLO")
    }

    @Test func theAdminSkipsIt() throws {
        let (result, asked) = check(.success(.deny(reason: "no")), as: .admin)
        #expect(try result?.get() == draft)
        #expect(asked == 0)
    }

    @Test func aFailureRefusesUnlessAllowed() throws {
        let failure = PublishHookFailure("it did not answer within 1000 ms")
        #expect(check(.failure(failure)).0 == .failure(.hookUnavailable))
        #expect(!SwitchboardError.hookUnavailable.message.contains("1000 ms"), "why is the operator's, in the log")
        #expect(try check(.failure(failure), failureAllows: true).0?.get() == draft)
    }

    @Test func aModifiedTextPastTheLimitIsAFailure() throws {
        guard case .failure(let error)? = check(.success(.modify(text: "far too long a text"))).0 else {
            Issue.record("a text past the limit was stored")
            return
        }
        #expect(error.code == "hook_unavailable")
        #expect(try check(.success(.modify(text: "far too long a text")), failureAllows: true).0?.get() == draft)
    }
}
