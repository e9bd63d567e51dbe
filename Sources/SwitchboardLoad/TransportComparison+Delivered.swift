extension TransportComparison {
    /// Whether every subscribed client has every published message.
    ///
    /// The counts first (a lock each), and the ids (`receipts`, a set made
    /// per client) only once every count is there: checked every 50 ms while
    /// the last messages are still fanned out, the full check made a set for
    /// each client already complete, CPU taken from the deliveries it was
    /// waiting for.
    /// - Parameters:
    ///   - sentAt: publish time by message id.
    ///   - receipts: a client's receipts keyed by message id.
    static func allDelivered(_ records: [StreamRecord], sentAt: [Int64: UInt64],
                             receipts: (StreamRecord) -> [(id: Int64, at: UInt64)]) -> Bool {
        if records.contains(where: { $0.opened && $0.count < sentAt.count }) { return false }
        return !records.contains { record in
            record.opened && Set(receipts(record).map(\.id)).intersection(sentAt.keys).count < sentAt.count
        }
    }
}
