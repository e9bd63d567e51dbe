/// What one client got, checked against what was published: each message
/// counted once, duplicates and order (by message id, the bus's order)
/// noted, and the latency of each delivery.
struct ClientTally {
    var delivered = 0
    var duplicates = 0
    var ordered = true
    /// Message id and milliseconds from publish to receipt, per delivery.
    var deliveries: [(id: Int64, milliseconds: Double)] = []

    /// - Parameters:
    ///   - receipts: (message id, monotonic receive time) in arrival order.
    ///   - sentAt: monotonic publish time by message id; receipts of other ids
    ///     (e.g. joins) are ignored.
    init(receipts: [(id: Int64, at: UInt64)], sentAt: [Int64: UInt64]) {
        var seen = Set<Int64>()
        var last: Int64 = -1
        for receipt in receipts {
            guard let sentTime = sentAt[receipt.id] else { continue }
            if !seen.insert(receipt.id).inserted { duplicates += 1; continue }
            if receipt.id < last { ordered = false }
            last = receipt.id
            delivered += 1
            deliveries.append((receipt.id, Double(receipt.at - min(receipt.at, sentTime)) / 1e6))
        }
    }

    /// A raw TCP client's receipts, keyed by message index (a line carries no
    /// id, only the text `m<index>`), re-keyed by the id each publish was
    /// given: with several publishers, ids need not follow the indexes, and
    /// the bus delivers in id order.
    static func receiptsByID(_ receipts: [(id: Int64, at: UInt64)], idByIndex: [Int64: Int64]) -> [(id: Int64, at: UInt64)] {
        receipts.compactMap { receipt in idByIndex[receipt.id].map { (id: $0, at: receipt.at) } }
    }
}
