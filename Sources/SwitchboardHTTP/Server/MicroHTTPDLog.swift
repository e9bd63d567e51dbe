import Logging
import MicroHTTPD
import Synchronization

/// libmicrohttpd's own messages, into the server's log, at a level that
/// says whose they are and never faster than an operator can read.
///
/// libmicrohttpd logs what clients do wrong: every malformed request
/// ("Failed to parse `Content-Length' header", "Error processing request
/// (HTTP response code is 400 …)") and every connection over the limit. At
/// warning, anyone could write two lines to the log per request sent, some
/// 50,000 a second on loopback, and fill the disk or bury what matters. So
/// what a client (or a client gone) caused is debug, and of the rest at most
/// ``perMinute`` a minute are warnings; how many were left out is said with
/// the first one of a later minute.
public final class MicroHTTPDLog: Sendable {
    /// Most warnings a minute.
    public let perMinute: Int
    private let logger: Logger
    private let now: @Sendable () -> ContinuousClock.Instant
    private let window = Mutex<(start: ContinuousClock.Instant?, logged: Int, leftOut: Int)>((nil, 0, 0))

    /// - Parameter now: the clock (a test's own).
    public init(logger: Logger, perMinute: Int = 20, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.logger = logger
        self.perMinute = perMinute
        self.now = now
    }

    /// Logs one of libmicrohttpd's messages.
    public func log(_ message: String) {
        if LibraryMessages.isAboutOneClient(message) {
            logger.debug("libmicrohttpd: \(message)")
            return
        }
        let time = now()
        let (log, leftOut) = window.withLock { window -> (Bool, Int) in
            var leftOut = 0
            if let start = window.start, time - start < .seconds(60) {
                guard window.logged < perMinute else {
                    window.leftOut += 1
                    return (false, 0)
                }
            } else {
                leftOut = window.leftOut
                window = (time, 0, 0)
            }
            window.logged += 1
            return (true, leftOut)
        }
        if leftOut > 0 { logger.warning("libmicrohttpd: \(leftOut) more messages in the minute before were left out of the log") }
        if log { logger.warning("libmicrohttpd: \(message)") }
    }
}
