import AsyncHTTPClient
import NIOCore
import Synchronization

/// HTTP clients that connect a push endpoint's host name to the address
/// that was checked, not to whatever the name resolves to a moment later:
/// without a pin, a name answering a public address to the check and
/// 127.0.0.1 to the client's own lookup (DNS rebinding) would make the
/// server POST into its own network. One client per host (its connections
/// kept alive), made with async-http-client's `dnsOverride` (host → the
/// address; TLS still verifies the certificate for the name); kept while
/// its address is still one of the name's public addresses, so a service
/// that rotates among several keeps its connections.
final class PinnedClients: Sendable {
    private struct Entry {
        var address: String
        var client: HTTPClient
        var lastUsed: UInt64
    }
    private struct State {
        var entries: [String: Entry] = [:]
        var uses: UInt64 = 0
        var closed = false
    }

    private let state = Mutex(State())
    private let configuration: HTTPClient.Configuration
    private let group: any EventLoopGroup
    /// Most hosts with a client at once; the least recently used goes first.
    let capacity: Int

    /// - Parameter configuration: every client's (timeouts, redirects); its own `dnsOverride` is replaced.
    init(configuration: HTTPClient.Configuration, group: any EventLoopGroup, capacity: Int = 64) {
        self.configuration = configuration
        self.group = group
        self.capacity = max(1, capacity)
    }

    /// The client for `host` (the URL's spelling: ``PushEndpoint/urlHost``)
    /// pinned to one of `addresses` (checked: all public): the pinned one
    /// if it is still among them, else the first. Also the clients this
    /// replaced or evicted, which the caller shuts down (none of them has a
    /// request under way when the sender asks between batches).
    /// Nil once ``close()`` was called.
    func client(for host: String, addresses: [String]) -> (client: HTTPClient?, retired: [HTTPClient]) {
        guard let first = addresses.first else { return (nil, []) }
        return state.withLock { state in
            guard !state.closed else { return (nil, []) }
            state.uses += 1
            var retired: [HTTPClient] = []
            if var entry = state.entries[host] {
                if addresses.contains(entry.address) {
                    entry.lastUsed = state.uses
                    state.entries[host] = entry
                    return (entry.client, [])
                }
                retired.append(entry.client)
                state.entries[host] = nil
            }
            if state.entries.count >= capacity, let oldest = state.entries.min(by: { $0.value.lastUsed < $1.value.lastUsed }) {
                retired.append(oldest.value.client)
                state.entries[oldest.key] = nil
            }
            var pinned = configuration
            pinned.dnsOverride = [host: first]
            let client = HTTPClient(eventLoopGroupProvider: .shared(group), configuration: pinned)
            state.entries[host] = Entry(address: first, client: client, lastUsed: state.uses)
            return (client, retired)
        }
    }

    /// The address `host` is pinned to now, if it has a client.
    func address(of host: String) -> String? { state.withLock { $0.entries[host]?.address } }

    /// Makes no more clients and hands back every one made, for the caller to shut down.
    func close() -> [HTTPClient] {
        state.withLock { state in
            state.closed = true
            defer { state.entries = [:] }
            return state.entries.values.map(\.client)
        }
    }
}
