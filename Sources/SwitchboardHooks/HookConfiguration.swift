/// How a server talks to an application's backend (`switchboard serve`
/// options; SPEC "An application's backend").
public struct HookConfiguration: Sendable {
    /// `--webhook URL` (repeatable): where events are POSTed.
    public var webhooks: [String]
    /// `--webhook-secret`: what every request is signed with.
    public var secret: String?
    /// `--publish-hook URL`: asked before a message is stored.
    public var publishHook: String?
    /// `--publish-hook-timeout-ms` (default 1000).
    public var publishHookTimeoutMilliseconds: Int
    /// `--publish-hook-failure allow`: a hook that fails lets messages through (default: refuse, 503).
    public var publishHookFailureAllows: Bool
    /// `--webhook-backlog`: at most this many events wait per receiver; past
    /// it, the log waits to be read (nothing lost), presence events are dropped.
    public var backlogLimit: Int

    public init(webhooks: [String] = [], secret: String? = nil, publishHook: String? = nil,
                publishHookTimeoutMilliseconds: Int = 1000, publishHookFailureAllows: Bool = false, backlogLimit: Int = 100_000) {
        self.webhooks = webhooks
        self.secret = secret
        self.publishHook = publishHook
        self.publishHookTimeoutMilliseconds = publishHookTimeoutMilliseconds
        self.publishHookFailureAllows = publishHookFailureAllows
        self.backlogLimit = backlogLimit
    }

    /// Whether anything talks to a backend.
    public var isEnabled: Bool { !webhooks.isEmpty || publishHook != nil }
}
