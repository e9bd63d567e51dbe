/// An error a store throws that can say what happened in words fit for a
/// client's 503 and the operator's log: the database's message and code,
/// never the statement it ran or a row's values. GRDB's errors name the
/// statement (`… - while executing `INSERT INTO …``); a client was shown it.
public protocol StoreErrorDescribing: Error {
    /// What happened, e.g. `SQLite: database or disk is full (13)`.
    var summary: String { get }
}

extension SwitchboardError {
    /// How a store's error reads in a refusal: its ``StoreErrorDescribing/summary``
    /// when it has one, else its description.
    private static func storeText(of error: any Error) -> String {
        (error as? any StoreErrorDescribing)?.summary ?? String(describing: error)
    }

    /// `error` as it is when it is a ``SwitchboardError``, else
    /// ``storeUnavailable(_:)`` with its ``storeText(of:)``.
    public static func storeUnavailable(because error: any Error) -> SwitchboardError {
        error as? SwitchboardError ?? storeUnavailable(storeText(of: error))
    }

    /// A message write the store refused, with its ``storeText(of:)``: 503.
    public static func storeFailure(because error: any Error) -> SwitchboardError {
        error as? SwitchboardError ?? storeFailure(storeText(of: error))
    }

    /// `/healthz`'s probe found the store refusing writes: 503.
    public static func storeNotWritable(because error: any Error) -> SwitchboardError {
        error as? SwitchboardError
            ?? SwitchboardError(.unavailable, code: "store_unavailable", message: "The store is not writable: \(storeText(of: error)).")
    }
}
