import NIOCore
import SwitchboardPush
import Testing

/// The buffer raw TCP and WebSocket deliveries reuse: its storage again once
/// the write let it go, never while a write still holds it.
@Suite("A delivery's kept buffer")
struct KeptFrameBufferTests {
    let allocator = ByteBufferAllocator()

    func storage(of buffer: ByteBuffer) -> UInt {
        buffer.withVeryUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
    }

    @Test func theNextDeliveryWritesIntoTheSameStorageOnceTheWriteHasLetItGo() {
        var kept = KeptFrameBuffer()
        var first = kept.take(capacity: 128, from: allocator)
        first.writeString("one\n")
        let address = storage(of: first)
        kept.keep(first)
        first = ByteBuffer()  // the flush has sent it: the write's copy is gone
        let second = kept.take(capacity: 128, from: allocator)
        #expect(storage(of: second) == address)
        #expect(second.readableBytes == 0)
    }

    @Test func aBufferAWriteStillHoldsIsNeverWrittenOver() {
        var kept = KeptFrameBuffer()
        var first = kept.take(capacity: 128, from: allocator)
        first.writeString("one\n")
        let pendingWrite = first  // NIO's pending write holds it until the socket takes it
        kept.keep(first)
        first = ByteBuffer()
        var second = kept.take(capacity: 128, from: allocator)
        second.writeString("two\n")
        #expect(storage(of: second) != storage(of: pendingWrite))
        #expect(String(buffer: pendingWrite) == "one\n")
        #expect(String(buffer: second) == "two\n")
    }

    @Test func aBufferGrownPastTheLimitIsLetGo() {
        var kept = KeptFrameBuffer()
        var big = kept.take(capacity: 64, from: allocator)
        big.writeBytes([UInt8](repeating: 0x61, count: KeptFrameBuffer.keptBytes + 1))
        kept.keep(big)
        big = ByteBuffer()
        let next = kept.take(capacity: 64, from: allocator)
        #expect(next.capacity < KeptFrameBuffer.keptBytes)  // a new buffer, not the big one
    }
}
