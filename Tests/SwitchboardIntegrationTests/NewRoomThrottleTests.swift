import SwitchboardCore
import SwitchboardTesting
import Testing

/// `--room-rate` against guests behind one address who all join the same
/// new room while its first message is still being stored.
@Suite("New rooms paid for once", .serialized)
struct NewRoomThrottleTests {
    @Test func guestsJoiningANewRoomDuringASlowCommitAreNotRefused() throws {
        // Writes wait at the gate: the room stays new (nothing stored) for every join.
        let store = GatedMessageStore(closed: false)
        let server = try TestServer(store: store, auth: TestServer.auth(newRoomBurst: 2))
        store.closeGate()
        defer { store.openGate() }
        var clients: [TestLineClient] = []
        for index in 0..<5 {
            let line = try TestLineClient(port: server.tcpPort)
            try line.write("join:lecture\niam:student\(index)\nping:\(index)\n")
            // Refused or not, the join is answered before the ping's pong.
            let answer = try line.readUntil { $0.hasPrefix("pong:") || $0.hasPrefix("error:") }
            #expect(answer == "pong:\(index)", "student\(index): \(answer)")
            clients.append(line)
        }
        // Another new room still costs: the address's two tokens went on "lecture" and this one.
        let other = try TestLineClient(port: server.tcpPort)
        try other.write("join:seminar\nping:s\n")
        #expect(try other.readUntil { $0.hasPrefix("pong:") || $0.hasPrefix("error:") } == "pong:s")
        try other.write("join:workshop\nping:w\n")
        #expect(try other.readUntil { $0.hasPrefix("pong:") || $0.hasPrefix("error:") } == "error:rate_limited")
        store.openGate()
        // Each then sees its own join, as the app expects.
        for (index, line) in clients.enumerated() {
            #expect(try line.readUntil { $0 == "student\(index) has joined" } == "student\(index) has joined")
        }
    }
}
