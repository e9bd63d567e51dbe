import Testing
@testable import SwitchboardLoad

/// The load client's wait for the last deliveries: right, and cheap while
/// they are still coming.
@Suite("All delivered (load client)")
struct AllDeliveredTests {
    let sentAt: [Int64: UInt64] = [10: 1, 11: 2, 12: 3]

    func record(_ ids: [Int64], opened: Bool = true) -> StreamRecord {
        let record = StreamRecord()
        if opened { record.markOpened() }
        for id in ids { record.received(id, at: 5) }
        return record
    }

    @Test func everyOpenedClientNeedsEveryId() {
        let complete = record([10, 11, 12]), notOpened = record([], opened: false)
        #expect(TransportComparison.allDelivered([complete, notOpened], sentAt: sentAt) { $0.receipts })
        // Enough receipts, but one twice and one missing; and others' ids (joins) that do not count.
        #expect(!TransportComparison.allDelivered([complete, record([10, 11, 11])], sentAt: sentAt) { $0.receipts })
        #expect(!TransportComparison.allDelivered([record([10, 11, 99])], sentAt: sentAt) { $0.receipts })
        #expect(TransportComparison.allDelivered([record([99, 10, 11, 12])], sentAt: sentAt) { $0.receipts })
    }

    @Test func noClientsIdsAreReadWhileACountIsShort() {
        var read = 0
        let records = [record([10, 11, 12]), record([10, 11, 12]), record([10])]
        #expect(!TransportComparison.allDelivered(records, sentAt: sentAt) { read += 1; return $0.receipts })
        #expect(read == 0)
    }
}
