import CoreMetrics
import Prometheus
import SwitchboardCore
import SwitchboardWebPush

/// `/metrics` in the Prometheus text format: swift-metrics counters, timers
/// and gauges backed by a swift-prometheus registry of this server's own (no
/// process-wide bootstrap). It is the bus's ``DeliveryStatsSink``, so it sees
/// every publish and delivery; connection and store gauges are set at scrape.
public final class PrometheusExporter: DeliveryStatsSink {
    private let registry = PrometheusCollectorRegistry()
    private let publishedMessages: CoreMetrics.Counter
    private let storeAppend: CoreMetrics.Timer
    /// Per transport, by ``Transport/ordinal``: looked up on every delivery,
    /// where hashing a dictionary key cost more than the count itself.
    private let delivered: [CoreMetrics.Counter]
    private let latency: [CoreMetrics.Timer]
    private let connections: [Transport: CoreMetrics.Gauge]
    private let storeBytes: CoreMetrics.Gauge
    private let uptime: CoreMetrics.Gauge

    public init() {
        let factory = PrometheusMetricsFactory(registry: registry)
        publishedMessages = Counter(label: "switchboard_messages_published_total", factory: factory)
        storeAppend = Timer(label: "switchboard_store_append_seconds", factory: factory)
        let transports = Transport.allCases.sorted()  // by ordinal
        delivered = transports.map {
            Counter(label: "switchboard_messages_delivered_total", dimensions: [("transport", $0.rawValue)], factory: factory)
        }
        latency = transports.map {
            Timer(label: "switchboard_delivery_latency_seconds", dimensions: [("transport", $0.rawValue)], factory: factory)
        }
        connections = Dictionary(uniqueKeysWithValues: Transport.allCases.map {
            ($0, Gauge(label: "switchboard_connections", dimensions: [("transport", $0.rawValue)], factory: factory))
        })
        storeBytes = Gauge(label: "switchboard_store_bytes", factory: factory)
        uptime = Gauge(label: "switchboard_uptime_seconds", factory: factory)
    }

    public func published(storeSeconds: Double) {
        publishedMessages.increment()
        storeAppend.recordNanoseconds(Int64(storeSeconds * 1e9))
    }

    public func delivered(_ count: Int, transport: Transport, latencyMilliseconds: Double) {
        delivered[transport.ordinal].increment(by: count)
        latency[transport.ordinal].recordNanoseconds(Int64(latencyMilliseconds * 1e6))
    }

    /// The text exposition, with the gauges set to these values first.
    public func exposition(connections counts: [Transport: Int], storeBytes bytes: Int64, uptimeSeconds: Double) -> [UInt8] {
        for (transport, gauge) in connections { gauge.record(counts[transport] ?? 0) }
        storeBytes.record(bytes)
        uptime.record(uptimeSeconds)
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return buffer
    }

    /// Web Push's queue and outcomes in the text format.
    public static func pushExposition(_ figures: PushFigures) -> [UInt8] {
        var text = "# TYPE switchboard_push_pending gauge\nswitchboard_push_pending \(figures.pending)\n"
        text += "# TYPE switchboard_push_total counter\n"
        for (outcome, count) in [("sent", figures.sent), ("gone", figures.gone), ("failed", figures.failed)] {
            text += "switchboard_push_total{outcome=\"\(outcome)\"} \(count)\n"
        }
        return Array(text.utf8)
    }

    /// Webhooks' queue and outcomes, and the publish hook's verdicts, in the text format.
    public static func backendExposition(_ figures: BackendFigures) -> [UInt8] {
        var text = "# TYPE switchboard_webhook_pending gauge\nswitchboard_webhook_pending \(figures.pending)\n"
        text += "# TYPE switchboard_webhook_total counter\n"
        for (outcome, count) in [("delivered", figures.delivered), ("retried", figures.retried), ("failed", figures.failed),
                                 ("dropped", figures.dropped)] {
            text += "switchboard_webhook_total{outcome=\"\(outcome)\"} \(count)\n"
        }
        text += "# TYPE switchboard_publish_hook_total counter\n"
        for (verdict, count) in [("allow", figures.allowed), ("deny", figures.denied), ("modify", figures.modified),
                                 ("failed", figures.hookFailed)] {
            text += "switchboard_publish_hook_total{verdict=\"\(verdict)\"} \(count)\n"
        }
        return Array(text.utf8)
    }

    /// Uploads' storage in the text format: in all, and for the 20 largest
    /// uploaders (a label per user for every user would grow without bound).
    public static func mediaExposition(_ usage: [MediaUsage]) -> [UInt8] {
        var text = "# TYPE switchboard_media_bytes gauge\nswitchboard_media_bytes \(usage.reduce(0) { $0 + $1.bytes })\n"
        text += "# TYPE switchboard_media_files gauge\nswitchboard_media_files \(usage.reduce(0) { $0 + $1.files })\n"
        text += "# TYPE switchboard_media_user_bytes gauge\n"
        for user in usage.prefix(20) {
            let label = user.user.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                .replacingOccurrences(of: "\n", with: "\\n")
            text += "switchboard_media_user_bytes{user=\"\(label)\"} \(user.bytes)\n"
        }
        return Array(text.utf8)
    }
}
