/// The refusals of an application's backend (SPEC "An application's backend").
extension SwitchboardError {
    /// 403: the publish hook said no, for `reason`.
    public static func denied(_ reason: String) -> SwitchboardError {
        SwitchboardError(.forbidden, code: "denied", message: reason.isEmpty ? "The message was refused." : reason)
    }
    /// 503: the publish hook gave no verdict (and `--publish-hook-failure` is `refuse`).
    /// Why is the operator's (the server logs it), not the publisher's: it
    /// named the backend's address, its HTTP client's errors and its limits.
    public static let hookUnavailable = SwitchboardError(.unavailable, code: "hook_unavailable",
                                                         message: "The application's publish hook did not answer; try again.")
}
