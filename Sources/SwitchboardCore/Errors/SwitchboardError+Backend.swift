/// The refusals of an application's backend (SPEC "An application's backend").
extension SwitchboardError {
    /// 403: the publish hook said no, for `reason`.
    public static func denied(_ reason: String) -> SwitchboardError {
        SwitchboardError(.forbidden, code: "denied", message: reason.isEmpty ? "The message was refused." : reason)
    }
    /// 503: the publish hook gave no verdict (and `--publish-hook-failure` is `refuse`).
    public static func hookUnavailable(_ failure: PublishHookFailure) -> SwitchboardError {
        SwitchboardError(.unavailable, code: "hook_unavailable",
                         message: "The application's publish hook did not answer (\(failure.description)); try again.")
    }
}
