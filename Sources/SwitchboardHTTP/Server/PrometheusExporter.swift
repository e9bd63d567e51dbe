import CoreMetrics
import Prometheus
import SwitchboardCore
import SwitchboardWebPush

/// `/metrics` in the Prometheus text format: swift-metrics counters, timers
/// and gauges backed by a swift-prometheus registry of this server's own (no
/// process-wide bootstrap). It is the bus's ``DeliveryStatsSink``, so it sees
/// every publish; connection and store gauges are set at scrape, and the
/// deliveries' totals and latency histograms are read from ``DeliveryStats``
/// then (kept there, under the lock each write takes anyway).
public final class PrometheusExporter: DeliveryStatsSink {
    private let registry = PrometheusCollectorRegistry()
    private let publishedMessages: CoreMetrics.Counter
    private let storeAppend: CoreMetrics.Timer
    private let connections: [Transport: CoreMetrics.Gauge]
    private let storeBytes: CoreMetrics.Gauge
    private let uptime: CoreMetrics.Gauge

    public init() {
        let factory = PrometheusMetricsFactory(registry: registry)
        publishedMessages = Counter(label: "switchboard_messages_published_total", factory: factory)
        storeAppend = Timer(label: "switchboard_store_append_seconds", factory: factory)
        connections = Dictionary(uniqueKeysWithValues: Transport.allCases.map {
            ($0, Gauge(label: "switchboard_connections", dimensions: [("transport", $0.rawValue)], factory: factory))
        })
        storeBytes = Gauge(label: "switchboard_store_bytes", factory: factory)
        uptime = Gauge(label: "switchboard_uptime_seconds", factory: factory)
    }

    public func published(_ count: Int, storeSeconds: Double) {
        publishedMessages.increment(by: count)
        storeAppend.recordNanoseconds(Int64(storeSeconds * 1e9))
    }

    /// The text exposition, with the gauges set to these values first, and
    /// `deliveries` (``DeliveryStats/totals()``) after the registry's metrics.
    public func exposition(connections counts: [Transport: Int], storeBytes bytes: Int64, uptimeSeconds: Double,
                           deliveries: [Transport: (delivered: Int, latency: DeliveryLatencyHistogram)]) -> [UInt8] {
        for (transport, gauge) in connections { gauge.record(counts[transport] ?? 0) }
        storeBytes.record(bytes)
        uptime.record(uptimeSeconds)
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return buffer + Self.deliveryExposition(deliveries)
    }

    /// `switchboard_messages_delivered_total` and `switchboard_delivery_latency_seconds`
    /// per transport, as swift-prometheus writes a counter and a timer's histogram.
    static func deliveryExposition(_ deliveries: [Transport: (delivered: Int, latency: DeliveryLatencyHistogram)]) -> [UInt8] {
        let transports = Transport.allCases.sorted()  // by ordinal
        var text = "# TYPE switchboard_messages_delivered_total counter\n"
        for transport in transports {
            text += "switchboard_messages_delivered_total{transport=\"\(transport.rawValue)\"} \(deliveries[transport]?.delivered ?? 0)\n"
        }
        text += "# TYPE switchboard_delivery_latency_seconds histogram\n"
        for transport in transports {
            let histogram = deliveries[transport]?.latency ?? DeliveryLatencyHistogram()
            let label = "transport=\"\(transport.rawValue)\""
            for (bound, count) in zip(DeliveryLatencyHistogram.boundsMilliseconds, histogram.cumulative) {
                text += "switchboard_delivery_latency_seconds_bucket{\(label),le=\"\(Double(bound) / 1000)\"} \(count)\n"
            }
            text += "switchboard_delivery_latency_seconds_bucket{\(label),le=\"+Inf\"} \(histogram.count)\n"
            text += "switchboard_delivery_latency_seconds_sum{\(label)} \(Double(histogram.sumMilliseconds) / 1000)\n"
            text += "switchboard_delivery_latency_seconds_count{\(label)} \(histogram.count)\n"
        }
        return Array(text.utf8)
    }

    /// Connections refused as soon as they were accepted, by why: their
    /// address held its most (`--max-connections-per-address`).
    public static func refusalExposition(refusedPerAddress: Int) -> [UInt8] {
        Array(("# TYPE switchboard_connections_refused_total counter\n"
               + "switchboard_connections_refused_total{reason=\"per_address\"} \(refusedPerAddress)\n").utf8)
    }

    /// The store's health for an alert: callers answered 503 because it did
    /// not answer within `--store-timeout`, and whether its writes are being
    /// refused (a full disk) or a call has gone unanswered past the timeout
    /// now (what `/healthz` and the log say).
    public static func storeHealthExposition(timeouts: Int, writesFailing: Bool, stalled: Bool) -> [UInt8] {
        Array(("# TYPE switchboard_store_timeouts_total counter\nswitchboard_store_timeouts_total \(timeouts)\n"
               + "# TYPE switchboard_store_writes_failing gauge\nswitchboard_store_writes_failing \(writesFailing ? 1 : 0)\n"
               + "# TYPE switchboard_store_stalled gauge\nswitchboard_store_stalled \(stalled ? 1 : 0)\n").utf8)
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
    /// uploaders (a label per user for every user would grow without bound);
    /// and whether uploads' bytes are being refused (a full disk), for an alert.
    public static func mediaExposition(_ usage: [MediaUsage], writesFailing: Bool) -> [UInt8] {
        var text = "# TYPE switchboard_media_writes_failing gauge\nswitchboard_media_writes_failing \(writesFailing ? 1 : 0)\n"
        text += "# TYPE switchboard_media_bytes gauge\nswitchboard_media_bytes \(usage.reduce(0) { $0 + $1.bytes })\n"
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
