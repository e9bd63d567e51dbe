/// The headers every page and static file is served with: the pages load
/// nothing from elsewhere (no CDN, no inline script or style), so
/// `default-src 'self'` holds; no site may frame them (clickjacking the
/// signed-in user); and no browser guesses a type other than the one sent.
enum PageHeaders {
    /// The Content-Security-Policy of the pages.
    static let contentSecurityPolicy =
        "default-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:; object-src 'none'; "
        + "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    /// All of them, in the order they are sent.
    static let all: [(name: String, value: String)] = [
        ("Content-Security-Policy", contentSecurityPolicy),
        ("X-Frame-Options", "DENY"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "same-origin"),
    ]
}
