import JWTKit

/// A token's claims as read from its payload, every one optional so that a
/// missing one is refused with its name rather than as unreadable JSON.
struct TokenPayload: JWTPayload, Equatable {
    var sub: SubjectClaim?
    var exp: ExpirationClaim?
    var nbf: NotBeforeClaim?
    var iat: IssuedAtClaim?
    var jti: IDClaim?
    var rooms: [String]?

    /// Time claims are checked by ``JWTTokenVerifier`` against its own clock.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
