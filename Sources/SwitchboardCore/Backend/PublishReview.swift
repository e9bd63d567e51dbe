/// The publish hook's rule, in one place every transport reaches through
/// ``MessageActService``: the admin's publishes skip it; `allow` stores the
/// draft, `deny` refuses it (403 `denied`), `modify` stores the new text
/// (checked like any text); a hook that fails refuses (503
/// `hook_unavailable`) unless `--publish-hook-failure allow`.
public struct PublishReview: Sendable {
    let hook: any PublishHook
    let failureAllows: Bool
    let limits: MessageLimits
    let failed: @Sendable (PublishHookFailure) -> Void

    /// - Parameters:
    ///   - failureAllows: `--publish-hook-failure allow`: a hook that fails lets the message through.
    ///   - failed: told of each failure (the server logs and counts them).
    public init(hook: any PublishHook, failureAllows: Bool, limits: MessageLimits,
                failed: @escaping @Sendable (PublishHookFailure) -> Void = { _ in }) {
        self.hook = hook
        self.failureAllows = failureAllows
        self.limits = limits
        self.failed = failed
    }

    /// `draft` as it may be stored, or the refusal; `completion` runs on whatever thread the hook answers on.
    public func check(_ draft: MessageDraft, media: [String] = [], by identity: Identity,
                      completion: @escaping @Sendable (Result<MessageDraft, SwitchboardError>) -> Void) {
        if identity == .admin { return completion(.success(draft)) }
        hook.review(draft, media: media) { [failureAllows, limits, failed] answer in
            switch answer {
            case .success(.allow): completion(.success(draft))
            case .success(.deny(let reason)): completion(.failure(.denied(reason)))
            case .success(.modify(let text)):
                do throws(SwitchboardError) {
                    var changed = draft
                    changed.text = try limits.validText(text)
                    completion(.success(changed))
                } catch {
                    let failure = PublishHookFailure("its text was refused (\(error.message))")
                    failed(failure)
                    completion(failureAllows ? .success(draft) : .failure(.hookUnavailable))
                }
            case .failure(let failure):
                failed(failure)
                completion(failureAllows ? .success(draft) : .failure(.hookUnavailable))
            }
        }
    }
}
