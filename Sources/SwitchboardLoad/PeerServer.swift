/// Which server a comparison measures: Switchboard, or a peer serving the
/// same workload through its own protocol.
public enum PeerServer: String, Sendable, Codable, CaseIterable {
    /// Switchboard's own API.
    case switchboard
    /// Nchan on nginx, configured by `Scripts/peers.sh` with the same paths
    /// for SSE (`/api/rooms/R/events`) and publishing
    /// (`POST /api/rooms/R/messages`), and its long-poll at `/lp/R`. The load
    /// client publishes the message JSON with an id it assigns, and reads the
    /// id back from each event's data (Nchan's ids are its own).
    case nchan
}
