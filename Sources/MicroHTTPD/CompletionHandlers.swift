/// What runs when an exchange ends (``HTTPExchange/onCompletion(_:)``):
/// last-registered first, like `defer`, each once. The first two (the
/// router's and the endpoint's, as a rule) have fields of their own, so
/// the usual request allocates no array for them.
struct CompletionHandlers {
    typealias Handler = @Sendable (HTTPCompletion) -> Void

    private var first: Handler?
    private var second: Handler?
    private var later: [Handler] = []

    mutating func append(_ handler: @escaping Handler) {
        if first == nil {
            first = handler
        } else if second == nil {
            second = handler
        } else {
            later.append(handler)
        }
    }

    /// Takes every handler out, then runs them last-registered first (one
    /// registered while they run is never run).
    mutating func run(_ completion: HTTPCompletion) {
        let taken = self
        self = CompletionHandlers()
        for handler in taken.later.reversed() { handler(completion) }
        taken.second?(completion)
        taken.first?(completion)
    }
}
