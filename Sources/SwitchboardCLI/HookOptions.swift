import ArgumentParser
import Foundation
import Switchboard
import SwitchboardHooks

/// `switchboard serve`'s options for an application's backend: webhooks and the publish hook.
struct HookOptions: ParsableArguments {
    @Option(name: .customLong("webhook"), help: ArgumentHelp(
        "Where events are POSTed, signed (repeatable): message.created, message.edited, message.deleted, conversation.*, user.online/offline.",
        valueName: "url"))
    var webhooks: [String] = []

    @Option(name: .customLong("webhook-secret"), help: ArgumentHelp(
        "What webhooks and the publish hook are signed with (HMAC-SHA256); default: $SWITCHBOARD_WEBHOOK_SECRET.", valueName: "secret"))
    var secret: String?

    @Option(name: .customLong("publish-hook"), help: ArgumentHelp(
        "Asked before each message is stored; answers allow, deny (with a reason) or modify (with the text).", valueName: "url"))
    var publishHook: String?

    @Option(name: .customLong("publish-hook-timeout-ms"), help: "How long a publish waits for the hook.")
    var publishHookTimeout = 1000

    @Option(name: .customLong("publish-hook-failure"), help: ArgumentHelp(
        "When the hook fails or times out: refuse (503 hook_unavailable) or allow.", valueName: "refuse|allow"))
    var publishHookFailure = "refuse"

    @Option(name: .customLong("webhook-backlog"), help: "Events waiting per receiver at most; past it the log waits to be read.")
    var backlog = 100_000

    func validate() throws {
        for url in webhooks + (publishHook.map { [$0] } ?? []) {
            guard let parsed = URLComponents(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""),
                  !(parsed.host ?? "").isEmpty else {
                throw ValidationError("--webhook / --publish-hook: \(url) is not an http:// or https:// URL.")
            }
        }
        guard ["refuse", "allow"].contains(publishHookFailure) else {
            throw ValidationError("--publish-hook-failure: refuse or allow.")
        }
        try OptionRange.check("--publish-hook-timeout-ms", publishHookTimeout, 1...60_000)
        try OptionRange.check("--webhook-backlog", backlog, 1...10_000_000)
        if !webhooks.isEmpty || publishHook != nil, (resolvedSecret ?? "").isEmpty {
            throw ValidationError("--webhook and --publish-hook need --webhook-secret (or $SWITCHBOARD_WEBHOOK_SECRET): every request is signed.")
        }
    }

    /// What to tell the operator when the secret is shorter than
    /// HMAC-SHA256's 32 bytes: whoever guesses it signs requests to the
    /// backend as this server. Not refused: a deployment may have one already.
    var shortSecretWarning: String? {
        guard !webhooks.isEmpty || publishHook != nil, let secret = resolvedSecret, secret.utf8.count < 32 else { return nil }
        return "--webhook-secret is \(secret.utf8.count) bytes: give 32 or more (openssl rand -hex 32), or whoever guesses it can sign requests to your backend as this server"
    }

    /// The flag, else the environment (which `ps` does not show).
    var resolvedSecret: String? { secret ?? ProcessInfo.processInfo.environment["SWITCHBOARD_WEBHOOK_SECRET"] }

    func apply(to configuration: inout ChatServerConfiguration) {
        configuration.hooks = HookConfiguration(webhooks: webhooks, secret: resolvedSecret, publishHook: publishHook,
                                                publishHookTimeoutMilliseconds: publishHookTimeout,
                                                publishHookFailureAllows: publishHookFailure == "allow", backlogLimit: backlog)
    }
}
