import Testing
@testable import SwitchboardHooks

@Suite struct WebhookRetryTests {
    @Test func doublesFromASecondToFiveMinutes() {
        #expect(WebhookRetry.delay(attempts: 1, jitter: 0.5) == 1_000)
        #expect(WebhookRetry.delay(attempts: 2, jitter: 0.5) == 2_000)
        #expect(WebhookRetry.delay(attempts: 5, jitter: 0.5) == 16_000)
        #expect(WebhookRetry.delay(attempts: 12, jitter: 0.5) == 300_000)
        #expect(WebhookRetry.delay(attempts: 10_000, jitter: 0.5) == 300_000)
    }

    @Test func jitterIsTwentyPercentEitherWay() {
        #expect(WebhookRetry.delay(attempts: 3, jitter: 0) == 3_200)
        #expect(WebhookRetry.delay(attempts: 3, jitter: 1) == 4_800)
    }

    @Test func givenUpADayAfterTheEvent() {
        #expect(!WebhookRetry.givesUp(ts: 0, now: 86_400_000))
        #expect(WebhookRetry.givesUp(ts: 0, now: 86_400_001))
    }
}
