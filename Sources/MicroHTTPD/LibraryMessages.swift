/// What libmicrohttpd (0.9.75, Debian's) says in its log, read by its
/// wording: some of it it says nowhere else. Kept in one place, beside the
/// library's other quirks, so that a new version's wording is one file.
public enum LibraryMessages {
    /// It stopped accepting at the open-file limit (its `at_limit`): the
    /// daemon's loop owes it a pass after the next close (``DaemonLoop``).
    static func stoppedAccepting(_ message: String) -> Bool {
        message.hasPrefix("Hit process or system resource limit at")
    }

    /// Whether `message` is about one client: a request it got wrong (its
    /// framing, its Host, headers too large for its connection), a
    /// connection it left (routine for streams), a TLS handshake it did not
    /// finish or spoke plain HTTP into. A connection refused over a limit is
    /// not: the limit is the operator's.
    public static func isAboutOneClient(_ message: String) -> Bool {
        clientPhrases.contains { message.contains($0) }
    }

    private static let clientPhrases = [
        "Error processing request", "Content-Length' header", "without `Host' header", "Not enough memory in pool",
        "Failed to send", "Failed to forward", "no longer available", "closed by remote", "disconnected when reading",
        "closed when reading", "handshake",
    ]
}
