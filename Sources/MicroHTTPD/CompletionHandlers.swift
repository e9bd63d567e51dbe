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

    /// Every handler, leaving none: run them with ``run(_:)`` once this
    /// access has ended, so that a handler may register another (which is
    /// then never run) without touching handlers that are being changed.
    mutating func take() -> CompletionHandlers {
        defer { self = CompletionHandlers() }
        return self
    }

    /// Runs the handlers last-registered first.
    func run(_ completion: HTTPCompletion) {
        for handler in later.reversed() { handler(completion) }
        second?(completion)
        first?(completion)
    }
}
