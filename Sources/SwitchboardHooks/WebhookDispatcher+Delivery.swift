import AsyncHTTPClient
import NIOCore
import SwitchboardCore

/// Sending: a receiver's due events grouped by room (or user), each group
/// in id order on its own task, the groups at once.
extension WebhookDispatcher {
    /// `target`'s sender, on a task of its own while the server runs: what
    /// is due, while this node holds the lease, again at once after a full
    /// batch; otherwise it sleeps until the reader queues more or the
    /// first retry is due (30 s at most).
    func sender(for target: String) async {
        while !Task.isCancelled {
            var sleep: Int64 = 30_000
            if holding.load(ordering: .relaxed) {
                if await deliver(to: target) { continue }
                let store = store
                if let retry = try? await gate.value("the next webhook retry", { try store.nextWebhookRetry(target: target) }) {
                    sleep = min(sleep, max(10, retry - clock()))
                }
            }
            await senders[target]?.sleep(milliseconds: sleep)
        }
    }

    /// Sends what is due for `target`; true when a whole batch was due and
    /// some of it left the queue: more may be due at once.
    func deliver(to target: String) async -> Bool {
        let (store, now) = (store, clock())
        guard let due = try? await gate.value("webhooks due", { try store.dueWebhooks(target: target, now: now, limit: Self.deliveryBatch) }),
              !due.isEmpty else { return false }
        var groups: [String: [WebhookDelivery]] = [:]
        var order: [String] = []
        for delivery in due {
            if groups[delivery.event.key] == nil { order.append(delivery.event.key) }
            groups[delivery.event.key, default: []].append(delivery)
        }
        let finished = await withTaskGroup(of: [Int64].self) { group in
            for key in order {
                let deliveries = groups[key] ?? []
                group.addTask { await self.send(deliveries, to: target) }
            }
            return await group.reduce(into: [Int64]()) { $0.append(contentsOf: $1) }
        }
        guard !finished.isEmpty else { return false }
        _ = try? await gate.value("webhooks delivered") { try store.finishWebhooks(target: target, ids: finished) }
        counters.update { $0.pending = max(0, $0.pending - finished.count) }
        return due.count == Self.deliveryBatch
    }

    /// One room's events in order until one fails (retried later, holding the
    /// rest back); returns those that leave the queue (delivered or given up).
    private func send(_ deliveries: [WebhookDelivery], to target: String) async -> [Int64] {
        var finished: [Int64] = []
        for delivery in deliveries {
            let event = delivery.event
            if await post(event, to: target) {
                counters.update { $0.delivered += 1 }
                finished.append(event.id)
                continue
            }
            let now = clock()
            if WebhookRetry.givesUp(ts: event.ts, now: now) {
                counters.update { $0.failed += 1 }
                logger.warning("webhook given up a day after its event", metadata: ["target": "\(target)", "id": "\(event.id)"])
                finished.append(event.id)
                continue
            }
            let attempts = delivery.attempts + 1
            let due = now + WebhookRetry.delay(attempts: attempts, jitter: Double.random(in: 0...1))
            counters.update { $0.retried += 1 }
            let store = store
            _ = try? await gate.value("a webhook retried") { try store.retryWebhook(target: target, id: event.id, attempts: attempts, due: due) }
            break
        }
        return finished
    }

    /// POSTs `event`; true for a 2xx answer.
    private func post(_ event: WebhookEvent, to target: String) async -> Bool {
        guard let client = client.withLock({ $0 }),
              let request = try? SignedPost.request(url: target, body: event.body, signature: signature, now: clock(), event: event.type)
        else { return false }
        do {
            let response = try await SignedPost.send(request, on: client, deadline: .now() + Self.requestTimeout).get()
            return (200..<300).contains(Int(response.status.code))
        } catch {
            logger.debug("webhook attempt failed", metadata: ["target": "\(target)", "error": "\(error)"])
            return false
        }
    }
}
