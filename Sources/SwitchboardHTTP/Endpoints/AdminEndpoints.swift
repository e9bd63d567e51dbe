import MicroHTTPD
import SwitchboardCore
import SwitchboardWebPush

/// `/api/admin/...` (behind the admin token, checked by the router): live
/// stats (also as an SSE stream for the dashboard), connections by
/// transport, kick, delete.
final class AdminEndpoints: Sendable {
    private let services: HTTPServices
    /// The dashboards' stats streams.
    let feed: AdminStatsFeed

    init(services: HTTPServices) {
        self.services = services
        // The dashboard's tick runs on the timer thread: the store's figures as last read, never waited for.
        feed = AdminStatsFeed(scheduler: services.scheduler) {
            AdminEndpoints.statsJSON(services, figures: services.bus.storeFigures.current())
        }
    }

    /// `GET /api/admin/stats`: the store's figures read now (on the gate, at
    /// most `--store-timeout`), or as last read when the store does not
    /// answer: an operator looking into a stall gets the rest of the stats
    /// (and `store_stalled`), not a 503.
    func stats(_ exchange: any HTTPExchanging) -> HTTPHandlerResult {
        PendingAnswer.wait(exchange, awaiting: Result<StoreFigures.Figures, SwitchboardError>.self, until: { [bus = services.bus] done in
            bus.gate.run("reading the store's figures", { try bus.storeFigures.readNow() }, completion: done)
        }, then: { [services] read in
            .respond(.json(200, Self.statsJSON(services, figures: (try? read.get()) ?? services.bus.storeFigures.current())))
        })
    }

    /// The most rooms and users the stats list (every second, to each dashboard):
    /// a server with a hundred thousand rooms sent 6.5 MB a second, built on
    /// the timer thread in 170 ms.
    static let listed = 100

    private static func statsJSON(_ services: HTTPServices, figures: StoreFigures.Figures?) -> [UInt8] {
        struct Stats: Encodable {
            var uptimeSeconds: Double
            var storeBytes: Int64
            /// False while the last write to the store failed and none has succeeded since, or while it is stalled.
            var storeWritable: Bool
            /// True while a store call has gone unanswered past `--store-timeout`.
            var storeStalled: Bool
            /// False while uploads' bytes are refused (a full disk); absent without uploads.
            var uploadsWritable: Bool?
            var published: Int
            var lastID: Int64
            var connections: [String: Int]
            var transports: [String: DeliveryStats.TransportFigures]
            /// The most recent rooms (``listed``), and how many there are.
            var rooms: [RoomJSON<Int>]
            var roomCount: Int
            /// The first users online by room (``listed``), and how many there are.
            var users: [OnlineUser]
            var userCount: Int
            /// On a shared store: this node's id, and every live node.
            var node: String?
            var nodes: [NodeStatus]?
            /// Web Push's queue and what it sent (absent where push is off).
            var push: PushFigures?
            /// Webhooks' queue and the publish hook's verdicts (absent where neither is on).
            var backend: BackendFigures?
            enum CodingKeys: String, CodingKey {
                case published, connections, transports, rooms, users, node, nodes, push, backend
                case uptimeSeconds = "uptime_s"
                case storeBytes = "store_bytes", storeWritable = "store_writable", storeStalled = "store_stalled"
                case uploadsWritable = "uploads_writable"
                case lastID = "last_id"
                case roomCount = "room_count", userCount = "user_count"
            }
        }
        let online = services.presence.onlineEverywhere()
        let bus = services.bus
        let recent = bus.recentRooms(limit: listed)
        let users = onlineUsers(online)
        let stalled = bus.gate.isStalled()
        let stats = Stats(
            uptimeSeconds: services.uptimeSeconds, storeBytes: figures?.bytes ?? 0,
            storeWritable: !bus.writes.isFailing && !stalled, storeStalled: stalled,
            uploadsWritable: services.media.map { !$0.writes.isFailing },
            published: bus.stats.publishedCount,
            lastID: bus.lastID,
            connections: connectionCounts(services),
            transports: Dictionary(uniqueKeysWithValues: bus.stats.figures().map { ($0.key.rawValue, $0.value) }),
            rooms: recent.rooms.map { RoomJSON($0, online: online[$0.name]?.count ?? 0) },
            roomCount: recent.count,
            users: Array(users.prefix(listed)),
            userCount: users.count,
            node: services.cluster?.nodeID,
            nodes: services.cluster.map { $0.nodes() },
            push: services.push?.figures,
            backend: services.backend?())
        return MessageJSON.encode(stats)
    }

    /// `GET /api/admin/connections`: clients per transport, and every named user's transports by room.
    func connections() -> HTTPResponse {
        struct Connections: Encodable { var connections: [String: Int]; var users: [OnlineUser] }
        return .json(200, MessageJSON.encode(Connections(connections: Self.connectionCounts(services),
                                                          users: Self.onlineUsers(services.presence.onlineEverywhere()))))
    }

    /// `GET /api/admin/stats/events`: the stats once a second, as SSE.
    func statsEvents(_ exchange: any HTTPExchanging) throws -> HTTPResponse {
        guard let stream = feed.open(exchange) else { throw SwitchboardError.shuttingDown }
        return HTTPResponse(status: 200, headers: SSEEvent.headers, body: .stream(stream, blockSize: 16 * 1024))
    }

    /// `POST /api/admin/users/{user}/kick`: closes every connection of the
    /// user on every transport and ends their poll leases, on this node and
    /// (on a shared store) every other.
    func kick(user: String) throws -> HTTPResponse {
        struct Kicked: Encodable {
            var user: String
            /// Connections closed on this node.
            var closed: Int
            /// Whether the other nodes are being told (absent for a server on its own).
            var otherNodes: Bool?
            enum CodingKeys: String, CodingKey { case user, closed; case otherNodes = "other_nodes" }
        }
        let closed = services.connections.kick(user: user)
        services.presence.dropLeases(of: user)
        services.cluster?.kick(user: user)  // sent in the background
        return .json(200, MessageJSON.encode(Kicked(user: user, closed: closed, otherNodes: services.cluster.map { _ in true })))
    }

    /// `DELETE /api/admin/messages/{id}`: gone from every later read; a
    /// `delete` tombstone tells live clients.
    func delete(id: String, exchange: any HTTPExchanging) throws -> HTTPHandlerResult {
        let id = try Cursor.parse(id, name: "id")
        return PendingAnswer.wait(
            exchange, awaiting: Result<EncodedMessage?, SwitchboardError>.self,
            until: { [bus = services.bus] done in bus.delete(id: id, completion: done) },
            answer: { outcome in
                guard let tombstone = try outcome.get() else {
                    throw SwitchboardError(.notFound, code: "no_such_message", message: "There is no message \(id).")
                }
                return .json(200, tombstone.json)
            })
    }

    private struct OnlineUser: Encodable { var user: String; var room: String; var transports: [Transport] }

    private static func onlineUsers(_ online: [String: [(user: String, transports: [Transport])]]) -> [OnlineUser] {
        online.keys.sorted().flatMap { room in
            online[room]!.map { OnlineUser(user: $0.user, room: room, transports: $0.transports) }
        }
    }

    private static func connectionCounts(_ services: HTTPServices) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: services.connections.counts().map { ($0.key.rawValue, $0.value) })
    }
}
