#if canImport(Glibc)
import Glibc
#endif

/// Who store work is for, as the store gate tells callers apart to take
/// their work in turns (``CallerLanes``): a signed-in user, a guest's
/// address, the admin, or the server itself.
///
/// A transport names the caller once, around the handling of a request or
/// a frame (``run(_:)``); every ``StoreGate/run(_:_:completion:)`` on that
/// thread meanwhile, however deep in the services, is queued in its line,
/// and so is the work that a gate thread's completion asks for in turn. So
/// the services' signatures do not carry it: it is the thread's, as a log
/// line's metadata is.
public struct StoreCaller: Sendable, Equatable {
    /// The line's number; 0 is the server's own work.
    public let lane: UInt64

    /// Work no client asked for (the health probe, the push and webhook
    /// senders), and work asked for outside any caller's scope.
    public static let server = StoreCaller(lane: 0)
    /// The admin token's requests.
    public static let admin = StoreCaller(lane: 1)

    private init(lane: UInt64) {
        self.lane = lane
    }

    /// A user, by their name as their tokens carry it (one line for all their connections).
    public static func user(_ name: String) -> StoreCaller {
        var hasher = Hasher()
        hasher.combine(0x75 as UInt8)
        hasher.combine(name)
        return numbered(UInt64(bitPattern: Int64(hasher.finalize())))
    }

    /// A client with no account, by where it connects from (an IPv6
    /// client by its /64, as the limit per address counts it): the same
    /// line on every transport.
    public static func address(_ source: ConnectionSource) -> StoreCaller {
        numbered(source.number)
    }

    /// A client with no account, by its address's text (hashed when it is
    /// no address, e.g. a test's exchange).
    public static func address(text: String) -> StoreCaller {
        if let source = ConnectionSource(text: text) { return address(source) }
        var hasher = Hasher()
        hasher.combine(text)
        return numbered(UInt64(bitPattern: Int64(hasher.finalize())))
    }

    /// The caller for an identity: its user, the admin, or else the guest's address.
    public static func of(_ identity: Identity, guest: @autoclosure () -> StoreCaller) -> StoreCaller {
        switch identity {
        case .admin: return .admin
        case .user(let claims): return .user(claims.user)
        case .guest: return guest()
        }
    }

    /// A number that is neither the server's nor the admin's.
    private static func numbered(_ number: UInt64) -> StoreCaller {
        StoreCaller(lane: number < 2 ? number + 2 : number)
    }

    /// The caller whose work this thread is doing now (``server`` outside every ``run(_:)``).
    public static var current: StoreCaller {
        StoreCaller(lane: UInt64(UInt(bitPattern: pthread_getspecific(slot))))
    }

    /// Runs `body` as this caller's: the store work it asks for queues in this caller's line.
    public func run<T>(_ body: () throws -> T) rethrows -> T {
        let outer = pthread_getspecific(Self.slot)
        pthread_setspecific(Self.slot, UnsafeRawPointer(bitPattern: UInt(lane)))
        defer { pthread_setspecific(Self.slot, outer) }
        return try body()
    }

    /// The thread's caller, one slot per thread.
    private static let slot: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "no thread-specific key for the store's caller")
        return key
    }()
}
