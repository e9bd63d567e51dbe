import Synchronization

/// Every open connection that belongs to a named user, on any transport, with
/// a way to close it: what the admin's "kick" acts on.
public final class SessionDirectory: Sendable {
    /// Identifies one registration.
    public struct Token: Hashable, Sendable {
        fileprivate let value: UInt64
    }

    private struct Entry {
        var user: String
        var close: @Sendable () -> Void
    }

    private let entries = Mutex<(next: UInt64, byToken: [UInt64: Entry])>((0, [:]))

    public init() {}

    /// Registers a connection of `user`; `close` ends it (on any thread).
    public func register(user: String, close: @escaping @Sendable () -> Void) -> Token {
        entries.withLock { entries in
            entries.next += 1
            entries.byToken[entries.next] = Entry(user: user, close: close)
            return Token(value: entries.next)
        }
    }

    /// The connection ended by itself.
    public func unregister(_ token: Token) {
        entries.withLock { _ = $0.byToken.removeValue(forKey: token.value) }
    }

    /// Closes every connection of `user`; returns how many there were.
    @discardableResult
    public func kick(user: String) -> Int {
        let closers = entries.withLock { entries in
            let tokens = entries.byToken.filter { $0.value.user == user }.map(\.key)
            return tokens.compactMap { entries.byToken.removeValue(forKey: $0)?.close }
        }
        for close in closers { close() }
        return closers.count
    }
}
