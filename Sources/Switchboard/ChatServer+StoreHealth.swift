import Logging
import SwitchboardCore

extension ChatServer {
    /// The store's trouble in the log, once when it starts and once when it
    /// ends, not once a request: writes refused (a full disk, a database
    /// gone read-only) and a stall (a locked file, a frozen PostgreSQL),
    /// during which callers are answered 503 `store_unavailable`.
    static func logStoreHealth(of bus: MessageBus, logger: Logger) {
        bus.writes.observe { why in
            guard let why else { return logger.notice("the store takes writes again") }
            logger.error("writing to the store failed; publishes get 503 store_unavailable until a write succeeds. \(why)")
        }
        let timeout = bus.gate.timeoutSeconds
        bus.gate.observeStalls { stall in
            switch stall {
            case .began(let unanswered):
                logger.error("""
                    the store has not answered for \(seconds(unanswered)) s; callers get 503 store_unavailable \
                    after --store-timeout (\(seconds(timeout)) s) until it does
                    """)
            case .ended(let lasted, let refused):
                logger.notice("the store answers again after \(seconds(lasted)) s; \(refused) callers were refused meanwhile")
            }
        }
    }

    /// Uploads' bytes refused (a full disk), once each way: each upload is
    /// 503 meanwhile, and no message commit need fail to say so.
    static func logUploadWrites(of media: MediaService, logger: Logger) {
        media.writes.observe { why in
            guard let why else { return logger.notice("uploads are written again") }
            logger.error("an upload could not be written (\(why)); uploads get 503 store_unavailable until one is")
        }
    }

    private static func seconds(_ value: Double) -> String {
        let tenths = (value * 10).rounded() / 10
        return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
    }
}
