import Testing
@testable import SwitchboardHTTP

/// The long poll's decisions on a fake clock (monotonic nanoseconds).
@Suite("Long-poll state")
struct LongPollStateTests {
    let second: UInt64 = 1_000_000_000

    @Test func waitsSchedulingTheDeadlineOnceThenAnswersAtTheDeadline() {
        var state = LongPollState(deadline: 25 * second)
        #expect(state.next(now: 0, kicked: false, busClosed: false) == .waitForNews(scheduleDeadline: true))
        // Woken early (e.g. a publish in the room that the cursor had already seen): wait on, no second deadline.
        #expect(state.next(now: 3 * second, kicked: false, busClosed: false) == .waitForNews(scheduleDeadline: false))
        #expect(state.next(now: 25 * second - 1, kicked: false, busClosed: false) == .waitForNews(scheduleDeadline: false))
        #expect(state.next(now: 25 * second, kicked: false, busClosed: false) == .answerNow)
    }

    @Test func answersAtOnceWhenTheServerStopsAndWithAnErrorWhenKicked() {
        var stopping = LongPollState(deadline: 25 * second)
        #expect(stopping.next(now: 0, kicked: false, busClosed: false) == .waitForNews(scheduleDeadline: true))
        #expect(stopping.next(now: second, kicked: false, busClosed: true) == .answerNow)

        var kicked = LongPollState(deadline: 25 * second)
        #expect(kicked.next(now: 0, kicked: true, busClosed: false) == .answerKicked)
        // A kick wins over a deadline that passed at the same time.
        #expect(kicked.next(now: 30 * second, kicked: true, busClosed: true) == .answerKicked)
    }

    @Test func aClientThatLeftIsAnsweredAtOnceNotAtTheDeadline() {
        var state = LongPollState(deadline: 60 * second)
        #expect(state.next(now: 0, kicked: false, busClosed: false) == .waitForNews(scheduleDeadline: true))
        #expect(state.next(now: second, kicked: false, busClosed: false, clientLeft: true) == .answerNow)
    }

    @Test func aDeadlineAlreadyPassedOnArrivalAnswersAtOnce() {
        var state = LongPollState(deadline: 5)
        #expect(state.next(now: 5, kicked: false, busClosed: false) == .answerNow)
    }
}
