import Testing
@testable import SwitchboardCore

/// What the upload refusals say of sizes (``ByteSize``).
@Suite struct ByteSizeTests {
    @Test func aSizeIsInTheLargestUnitItReachesToATenth() {
        #expect(ByteSize.describe(0) == "0 bytes")
        #expect(ByteSize.describe(1) == "1 byte")
        #expect(ByteSize.describe(1023) == "1,023 bytes")
        #expect(ByteSize.describe(1024) == "1 KiB")
        #expect(ByteSize.describe(822_015) == "802.7 KiB")
        #expect(ByteSize.describe(1_048_575) == "1,024 KiB")
        #expect(ByteSize.describe(1 << 20) == "1 MiB")
        #expect(ByteSize.describe(2_496_088) == "2.4 MiB")
        #expect(ByteSize.describe(25 << 20) == "25 MiB")
        #expect(ByteSize.describe(1024 << 20) == "1,024 MiB")
        #expect(ByteSize.describe(1_048_575 << 20 + 1_048_000) == "1,048,576 MiB")  // rounded up into the next whole
        #expect(ByteSize.describe(Int64.max) == "8,796,093,022,208 MiB")  // no overflow at any quota
    }

    /// The quota's refusal said "0 MiB are in use" of 800 KiB of uploads, and "at most 0 MiB" of a quota under one.
    @Test func theQuotasRefusalSaysWhatIsInUse() {
        #expect(SwitchboardError.quotaExceeded(quotaBytes: 1 << 20, usedBytes: 822_015).message
                == "Your uploads may take at most 1 MiB together; 802.7 KiB are in use.")
        #expect(SwitchboardError.uploadTooLarge(maxBytes: 1000).message == "An upload may be at most 1,000 bytes.")
    }
}
