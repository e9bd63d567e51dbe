import Testing
@testable import SwitchboardHTTP

/// The long poll's decisions on a fake clock (monotonic nanoseconds).
@Suite("Long-poll state")
struct LongPollStateTests {
    let second: UInt64 = 1_000_000_000

    @Test func waitsSchedulingTheWatchThenTheDeadlineThenAnswersAtTheDeadline() {
        var state = LongPollState(arrived: 0, deadline: 25 * second)
        // Parked: woken at 1 s to watch the client, not watched before.
        #expect(state.next(now: 0, kicked: false, busClosed: false) == .waitForNews(wakeAt: second, watchHangup: false))
        // Woken early (e.g. a publish in the room that the cursor had already seen): wait on, nothing scheduled again.
        #expect(state.next(now: second / 2, kicked: false, busClosed: false) == .waitForNews(wakeAt: nil, watchHangup: false))
        // At 1 s: watched from now on, and woken at the deadline.
        #expect(state.next(now: second, kicked: false, busClosed: false) == .waitForNews(wakeAt: 25 * second, watchHangup: true))
        // Every park after it watches again (a resume ends the watch); the deadline is scheduled once.
        #expect(state.next(now: 3 * second, kicked: false, busClosed: false) == .waitForNews(wakeAt: nil, watchHangup: true))
        #expect(state.next(now: 25 * second - 1, kicked: false, busClosed: false) == .waitForNews(wakeAt: nil, watchHangup: true))
        #expect(state.next(now: 25 * second, kicked: false, busClosed: false) == .answerNow)
    }

    @Test func aPollWokenAfterTheWatchTimeBeforeItsTimerFiredWatchesAndMovesToTheDeadline() {
        var state = LongPollState(arrived: 10 * second, deadline: 40 * second)
        #expect(state.next(now: 10 * second, kicked: false, busClosed: false) == .waitForNews(wakeAt: 11 * second, watchHangup: false))
        // A message's wake-up just after 11 s, with nothing for this cursor: the timer at 11 s moves to the deadline.
        #expect(state.next(now: 11 * second + 1, kicked: false, busClosed: false) == .waitForNews(wakeAt: 40 * second, watchHangup: true))
        // The timer that had been set for 11 s does not come; were it to, nothing is scheduled twice.
        #expect(state.next(now: 12 * second, kicked: false, busClosed: false) == .waitForNews(wakeAt: nil, watchHangup: true))
    }

    @Test func aWakeUpSpentWhileThePollWasNotParkedIsDueWhenItParks() {
        var state = LongPollState(arrived: 0, deadline: 25 * second)
        #expect(!state.wakeIsDue(now: 0))
        #expect(state.next(now: 0, kicked: false, busClosed: false) == .waitForNews(wakeAt: second, watchHangup: false))
        #expect(!state.wakeIsDue(now: second - 1))
        // Woken by a message just before 1 s, parked again with nothing new (the timer not moved) after the timer went off.
        #expect(state.next(now: second - 1, kicked: false, busClosed: false) == .waitForNews(wakeAt: nil, watchHangup: false))
        #expect(state.wakeIsDue(now: second))
        // Acted on: the deadline is next, not yet due.
        #expect(state.next(now: second, kicked: false, busClosed: false) == .waitForNews(wakeAt: 25 * second, watchHangup: true))
        #expect(!state.wakeIsDue(now: second + 1))
        #expect(state.wakeIsDue(now: 25 * second))
    }

    @Test func aWaitNoLongerThanTheWatchDelayIsOnlyWokenAtItsDeadline() {
        var short = LongPollState(arrived: 0, deadline: second)
        #expect(short.next(now: 0, kicked: false, busClosed: false) == .waitForNews(wakeAt: second, watchHangup: false))
        #expect(short.next(now: second / 2, kicked: false, busClosed: false) == .waitForNews(wakeAt: nil, watchHangup: false))
        #expect(short.next(now: second, kicked: false, busClosed: false) == .answerNow)
    }

    @Test func answersAtOnceWhenTheServerStopsAndWithAnErrorWhenKicked() {
        var stopping = LongPollState(arrived: 0, deadline: 25 * second)
        #expect(stopping.next(now: 0, kicked: false, busClosed: false) == .waitForNews(wakeAt: second, watchHangup: false))
        #expect(stopping.next(now: second, kicked: false, busClosed: true) == .answerNow)

        var kicked = LongPollState(arrived: 0, deadline: 25 * second)
        #expect(kicked.next(now: 0, kicked: true, busClosed: false) == .answerKicked)
        // A kick wins over a deadline that passed at the same time.
        #expect(kicked.next(now: 30 * second, kicked: true, busClosed: true) == .answerKicked)
    }

    @Test func aClientThatLeftIsAnsweredAtOnceNotAtTheDeadline() {
        var state = LongPollState(arrived: 0, deadline: 60 * second)
        #expect(state.next(now: 0, kicked: false, busClosed: false) == .waitForNews(wakeAt: second, watchHangup: false))
        #expect(state.next(now: second, kicked: false, busClosed: false, clientLeft: true) == .answerNow)
    }

    @Test func aDeadlineAlreadyPassedOnArrivalAnswersAtOnce() {
        var state = LongPollState(arrived: 0, deadline: 5)
        #expect(state.next(now: 5, kicked: false, busClosed: false) == .answerNow)
    }
}
