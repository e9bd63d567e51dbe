/// An application's backend asked before a message is stored (`--publish-hook`).
/// ``PublishReview`` decides what its answer, or its silence, means.
public protocol PublishHook: Sendable {
    /// Asks about `draft` (a message carrying the uploads `media`, or an
    /// edit's new text); `completion` gets the backend's verdict, or why
    /// there is none (it failed, timed out, or answered something else), from any thread.
    func review(_ draft: MessageDraft, media: [String], completion: @escaping @Sendable (Result<PublishVerdict, PublishHookFailure>) -> Void)
}

/// Why a publish hook gave no verdict.
public struct PublishHookFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// For the log and the publisher's 503: "timed out after 1000 ms", "answered 500", …
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
