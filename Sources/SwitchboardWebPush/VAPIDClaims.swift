import Foundation
import JWTKit

/// What a VAPID token says (RFC 8292 §2): for which push service (`aud`,
/// its origin), until when (`exp`, at most 24 hours ahead), and who to
/// contact (`sub`, a `mailto:` or `https:` URL).
struct VAPIDClaims: JWTPayload, Equatable {
    var aud: String
    var exp: Int
    var sub: String

    func verify(using algorithm: some JWTAlgorithm) throws {
        let now = Int(Date().timeIntervalSince1970)
        guard exp > now else { throw JWTError.claimVerificationFailure(failedClaim: nil, reason: "expired") }
    }
}
