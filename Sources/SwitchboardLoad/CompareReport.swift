import SwitchboardCore
import Foundation

/// A self-contained HTML report of a comparison: the table and SVG charts
/// (latency distribution per transport; requests and bytes per delivered
/// message; and, after a sweep, cost and latency against the message rate).
/// No script, no network: it opens anywhere.
public enum CompareReport {
    /// One point of a rate sweep: the rate, and the results at that rate.
    public struct SweepPoint: Codable, Sendable {
        public var rate: Double
        public var results: [TransportComparison.Result]

        public init(rate: Double, results: [TransportComparison.Result]) {
            self.rate = rate
            self.results = results
        }
    }

    static let colors: [Transport: String] = [.shortPoll: "#b5561b", .longPoll: "#1f8a4c", .sse: "#3558d8", .tcp: "#8a3ffc", .websocket: "#c2185b"]

    /// The report as HTML.
    public static func html(results: [TransportComparison.Result], sweep: [SweepPoint], summary: String, table: String) -> String {
        var body = """
            <h1>Switchboard: polling vs push</h1>
            <p>\(escape(summary))</p>
            <pre>\(escape(table))</pre>
            <h2>Latency from publish to receipt</h2>
            <p>Share of deliveries (vertical) that arrived within a latency (horizontal, logarithmic).</p>
            \(latencyChart(results))
            <h2>What each delivered message cost</h2>
            \(barChart(results, title: "requests per delivered message", value: { Double($0.requests) / Double(max(1, $0.delivered)) }))
            \(barChart(results, title: "bytes received per delivered message", value: { $0.bytesPerDelivery }))
            """
        if !sweep.isEmpty {
            body += """
                <h2>Against the message rate</h2>
                <p>Each point is a run at that rate. Where short polling's requests per message rise above 1 it asks more often than anything happens; where its latency stays flat it pays half its interval whatever the rate.</p>
                \(sweepChart(sweep, title: "requests per delivered message", logY: true, value: { Double($0.requests) / Double(max(1, $0.delivered)) }))
                \(sweepChart(sweep, title: "latency p50 (ms)", logY: true, value: { max(0.1, $0.latencyP50Milliseconds) }))
                """
        }
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>Switchboard: polling vs push</title>
            <style>
            body { font-family: system-ui, sans-serif; color: #1d2330; margin: 2rem auto; max-width: 980px; padding: 0 1rem; }
            pre { background: #f4f5f7; padding: 1rem; overflow-x: auto; font-size: 0.8rem; }
            svg { display: block; margin: 0.5rem 0 1.5rem; background: #fbfcfd; border: 1px solid #e2e5eb; border-radius: 8px; }
            svg text { font-size: 11px; fill: #4a5163; }
            h2 { margin-top: 2rem; font-size: 1.1rem; }
            </style></head><body>
            \(body)
            </body></html>
            """
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    private static func format(_ value: Double) -> String {
        value >= 100 ? String(format: "%.0f", value) : value >= 1 ? String(format: "%.1f", value) : String(format: "%.2f", value)
    }

    /// An axis label: like ``format(_:)``, but two significant digits below 1
    /// (a rate of one message a minute reads 0.017, not 0.02).
    private static func label(_ value: Double) -> String {
        value >= 1 ? format(value) : String(format: "%.2g", value)
    }

    private static func latencyChart(_ results: [TransportComparison.Result]) -> String {
        let width = 900.0, height = 300.0, left = 50.0, bottom = 30.0, top = 10.0, right = 20.0
        let all = results.flatMap(\.latencies).filter { $0 > 0 }
        let low = max(0.1, (all.min() ?? 1)), high = max(low * 10, all.max() ?? 10)
        let (logLow, logHigh) = (log10(low), log10(high))
        func x(_ ms: Double) -> Double { left + (log10(max(low, ms)) - logLow) / (logHigh - logLow) * (width - left - right) }
        func y(_ share: Double) -> Double { top + (1 - share) * (height - top - bottom) }
        var svg = "<svg viewBox=\"0 0 \(Int(width)) \(Int(height))\" width=\"100%\" role=\"img\" aria-label=\"latency distribution\">"
        var decade = pow(10, floor(logLow))
        while decade <= high * 1.0001 {
            if decade >= low {
                svg += "<line x1=\"\(x(decade))\" x2=\"\(x(decade))\" y1=\"\(top)\" y2=\"\(height - bottom)\" stroke=\"#e7e9ee\"/>"
                svg += "<text x=\"\(x(decade) - 10)\" y=\"\(height - 10)\">\(format(decade)) ms</text>"
            }
            decade *= 10
        }
        for share in [0.0, 0.5, 1.0] {
            svg += "<line x1=\"\(left)\" x2=\"\(width - right)\" y1=\"\(y(share))\" y2=\"\(y(share))\" stroke=\"#e7e9ee\"/>"
            svg += "<text x=\"5\" y=\"\(y(share) + 4)\">\(Int(share * 100))%</text>"
        }
        for (row, result) in results.enumerated() where !result.latencies.isEmpty {
            let sorted = result.latencies.sorted()
            let points = (0...100).map { step -> String in
                let value = sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * Double(step) / 100))]
                return "\(format(x(value))),\(format(y(Double(step) / 100)))"
            }
            let color = colors[result.transport] ?? "#1d2330"
            svg += "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\" points=\"\(points.joined(separator: " "))\"/>"
            svg += "<text x=\"\(left + 10)\" y=\"\(top + 16 + Double(row) * 15)\" style=\"fill:\(color)\">\(escape(result.transport.rawValue))</text>"
        }
        return svg + "</svg>"
    }

    private static func barChart(_ results: [TransportComparison.Result], title: String,
                                 value: (TransportComparison.Result) -> Double) -> String {
        let width = 900.0, row = 28.0, left = 110.0
        let height = Double(results.count) * row + 30
        let maximum = max(0.0001, results.map(value).max() ?? 1)
        var svg = "<svg viewBox=\"0 0 \(Int(width)) \(Int(height))\" width=\"100%\" role=\"img\" aria-label=\"\(escape(title))\">"
        svg += "<text x=\"10\" y=\"18\" font-weight=\"600\">\(escape(title))</text>"
        for (index, result) in results.enumerated() {
            let y = 28 + Double(index) * row
            let length = value(result) / maximum * (width - left - 90)
            let color = colors[result.transport] ?? "#1d2330"
            svg += "<text x=\"10\" y=\"\(y + 14)\">\(escape(result.transport.rawValue))</text>"
            svg += "<rect x=\"\(left)\" y=\"\(y)\" width=\"\(format(max(1, length)))\" height=\"18\" rx=\"3\" fill=\"\(color)\"/>"
            svg += "<text x=\"\(format(left + max(1, length) + 6))\" y=\"\(y + 14)\">\(format(value(result)))</text>"
        }
        return svg + "</svg>"
    }

    private static func sweepChart(_ sweep: [SweepPoint], title: String, logY: Bool,
                                   value: (TransportComparison.Result) -> Double) -> String {
        let width = 900.0, height = 300.0, left = 60.0, bottom = 30.0, top = 28.0, right = 20.0
        let rates = sweep.map(\.rate)
        let values = sweep.flatMap { $0.results.map(value) }.filter { $0 > 0 }
        let (xLow, xHigh) = (log10(rates.min() ?? 1), log10(max((rates.max() ?? 10), (rates.min() ?? 1) * 10)))
        let (yLow, yHigh) = (log10(max(0.001, values.min() ?? 0.1)), log10(max((values.max() ?? 1), (values.min() ?? 0.1) * 10)))
        func x(_ rate: Double) -> Double { left + (log10(rate) - xLow) / max(0.0001, xHigh - xLow) * (width - left - right) }
        func y(_ v: Double) -> Double { top + (1 - (log10(max(0.001, v)) - yLow) / max(0.0001, yHigh - yLow)) * (height - top - bottom) }
        var svg = "<svg viewBox=\"0 0 \(Int(width)) \(Int(height))\" width=\"100%\" role=\"img\" aria-label=\"\(escape(title))\">"
        svg += "<text x=\"10\" y=\"18\" font-weight=\"600\">\(escape(title)), against messages per second (both axes logarithmic)</text>"
        for rate in rates {
            svg += "<text x=\"\(format(x(rate) - 12))\" y=\"\(height - 10)\">\(label(rate))/s</text>"
        }
        for v in [pow(10, yLow), pow(10, (yLow + yHigh) / 2), pow(10, yHigh)] {
            svg += "<text x=\"5\" y=\"\(format(y(v) + 4))\">\(label(v))</text>"
        }
        let transports = sweep.first?.results.map(\.transport) ?? []
        for (row, transport) in transports.enumerated() {
            let points = sweep.compactMap { point -> String? in
                guard let result = point.results.first(where: { $0.transport == transport }) else { return nil }
                return "\(format(x(point.rate))),\(format(y(value(result))))"
            }
            let color = colors[transport] ?? "#1d2330"
            svg += "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\" points=\"\(points.joined(separator: " "))\"/>"
            svg += "<text x=\"\(width - 120)\" y=\"\(top + 14 + Double(row) * 15)\" style=\"fill:\(color)\">\(escape(transport.rawValue))</text>"
        }
        return svg + "</svg>"
    }
}
