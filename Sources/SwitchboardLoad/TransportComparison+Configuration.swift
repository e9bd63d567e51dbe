import SwitchboardCore

extension TransportComparison {
    /// What to run: N clients of each transport in a fresh room, M messages
    /// at R per second from a few open-loop publishers.
    public struct Configuration: Sendable {
        public var host = "127.0.0.1"
        public var httpPort: Int
        public var tcpPort: Int
        /// The server's process, for its CPU time and memory (nil when unknown).
        public var serverPid: Int32?
        public var clients = 100
        public var messages = 200
        public var rate = 20.0
        /// Seconds between short polls.
        public var pollInterval = 1.0
        public var transports: [Transport] = [.shortPoll, .longPoll, .sse, .tcp]
        /// Connections opened at once while subscribing.
        public var connectBatch = 250
        /// Publishing connections (each publishes every n-th message).
        public var publishers = 4
        /// Seconds to measure the server idle afterwards, every client still connected (0: skip).
        public var idleSeconds = 0.0
        /// Event-loop threads of the clients.
        public var threads = 2
        /// The server measured: Switchboard, or a peer on the same paths.
        public var peer = PeerServer.switchboard
        /// Each publisher sends its next message as soon as the last one is
        /// acknowledged, ignoring `rate`.
        public var closedLoop = false
        /// Further nodes on the same shared database: subscribers are spread
        /// over the first node and these in turn; publishing stays on the first.
        public var otherNodes: [NodeAddress] = []
        /// Subscribe to, and publish in, this conversation as the token's
        /// user (SSE and WebSocket with `access_token`, polls with a Bearer
        /// header), rather than a fresh public room: what a member's
        /// delivery costs beside a public room's.
        public var conversation: ConversationSeat?
        /// Every HTTP connection (subscribers and publishers) over TLS. The
        /// server's certificate is not checked: the client measures, on
        /// loopback, what serving TLS costs.
        public var tls = false

        /// A conversation's room and a member's token.
        public struct ConversationSeat: Sendable {
            public var room: String
            public var token: String
            public init(room: String, token: String) {
                self.room = room
                self.token = token
            }
        }

        /// One more node's ports.
        public struct NodeAddress: Sendable {
            public var httpPort: Int
            public var tcpPort: Int
            public init(httpPort: Int, tcpPort: Int) {
                self.httpPort = httpPort
                self.tcpPort = tcpPort
            }
        }

        public init(httpPort: Int, tcpPort: Int) {
            self.httpPort = httpPort
            self.tcpPort = tcpPort
        }
    }
}
