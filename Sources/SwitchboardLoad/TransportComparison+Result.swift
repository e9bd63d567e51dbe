import SwitchboardCore

extension TransportComparison {
    /// One transport's figures.
    public struct Result: Codable, Sendable {
        public var transport: Transport
        public var clients: Int
        /// Clients that were subscribed when publishing began.
        public var subscribed: Int
        public var subscribeSeconds: Double
        public var expected: Int
        public var delivered: Int
        public var duplicates: Int
        /// Clients that saw messages out of order.
        public var outOfOrderClients: Int
        public var publishFailures: Int
        /// Messages published per second, as achieved.
        public var publishedPerSecond: Double
        /// Deliveries per second, from the first publish to the last receipt.
        public var deliveriesPerSecond: Double
        public var latencyP50Milliseconds: Double
        public var latencyP99Milliseconds: Double
        public var latencyMaxMilliseconds: Double
        /// How long a publish waited for its answer (the 201), from request sent to answer read.
        public var publishAnswerP50Milliseconds: Double
        public var publishAnswerP99Milliseconds: Double
        public var requests: Int
        public var emptyRequests: Int
        /// Bytes received by the clients (headers and framing included) per delivered message.
        public var bytesPerDelivery: Double
        /// Server CPU milliseconds per 1,000 deliveries (nil when not measurable).
        public var serverCPUMillisecondsPer1000: Double?
        /// The server's context switches (all threads) per delivery while publishing.
        public var serverContextSwitchesPerDelivery: Double?
        /// Of those, the involuntary ones (a server thread preempted, by the
        /// clients' threads on a machine they share), per delivery.
        public var serverPreemptionsPerDelivery: Double?
        /// Server CPU while publishing, in % of one core, and its memory after.
        public var serverBusyCPUPercent: Double?
        public var serverRSSMiB: Double?
        /// The load client's own CPU while publishing, in % of one core: on a
        /// machine it shares with the server, what the server could not have.
        public var clientBusyCPUPercent: Double?
        /// With every client connected and nothing published: server CPU in % of one core, and memory.
        public var idleCPUPercent: Double?
        public var idleRSSMiB: Double?
        /// The server's memory before any client connected (nil when not measurable).
        public var unloadedRSSMiB: Double?
        /// Memory per connection held: idle memory less the memory before, per client.
        public var kibPerConnection: Double? {
            guard let idle = idleRSSMiB, let unloaded = unloadedRSSMiB, subscribed > 0 else { return nil }
            return (idle - unloaded) * 1024 / Double(subscribed)
        }
        public var connections: Int
        /// Every message arrived exactly once, in order, and every publish was acknowledged.
        public var complete: Bool {
            delivered == expected && duplicates == 0 && outOfOrderClients == 0 && publishFailures == 0 && subscribed == clients
        }
        /// Latency of every delivery, in milliseconds (for charts).
        public var latencies: [Double]
        /// Each message's answer and deliveries, in id order: where the tail came from.
        public var timeline: [MessageTiming] = []
    }
}
