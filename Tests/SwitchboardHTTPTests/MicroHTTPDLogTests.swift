import Logging
import Synchronization
import Testing
import SwitchboardHTTP
import SwitchboardTesting

/// libmicrohttpd's messages in the server's log: a client's mistakes at
/// debug, and never more than a screenful of warnings a minute, however
/// many a flood makes.
@Suite struct MicroHTTPDLogTests {
    /// A clock the test moves.
    final class Clock: Sendable {
        let instant = Mutex(ContinuousClock.now)
        func advance(_ duration: Duration) { instant.withLock { $0 += duration } }
        var now: @Sendable () -> ContinuousClock.Instant { { self.instant.withLock { $0 } } }
    }

    @Test func whatAClientGotWrongIsDebug() {
        let logs = RecordedLogs()
        let log = MicroHTTPDLog(logger: logs.logger(level: .debug))
        for message in ["Failed to parse `Content-Length' header. Closing connection.\n",
                        "Error processing request (HTTP response code is 400 ('<html>…')). Closing connection.\n",
                        "Too large value of 'Content-Length' header. Closing connection.\n",
                        "Connection was closed by remote side with incomplete request.\n"] {
            log.log(message)
        }
        #expect(logs.messages(atLeast: .warning).isEmpty)
        #expect(logs.messages(atLeast: .debug).count == 4)
    }

    @Test func aFloodOfWarningsIsCutToTheLimitAndCounted() {
        let logs = RecordedLogs(), clock = Clock()
        let log = MicroHTTPDLog(logger: logs.logger(level: .debug), perMinute: 20, now: clock.now)
        for _ in 0..<5_000 { log.log("Server reached connection limit. Closing inbound connection.\n") }
        #expect(logs.messages(atLeast: .warning).count == 20)
        clock.advance(.seconds(30))
        log.log("Server reached connection limit. Closing inbound connection.\n")
        #expect(logs.messages(atLeast: .warning).count == 20, "the same minute")
        clock.advance(.seconds(31))
        log.log("Error accepting connection: Too many open files\n")
        let warnings = logs.messages(atLeast: .warning)
        #expect(warnings.count == 22)
        #expect(warnings.dropLast().last == "libmicrohttpd: 4981 more messages in the minute before were left out of the log")
        #expect(warnings.last?.contains("Too many open files") == true)
    }
}
