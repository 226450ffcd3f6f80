import Hummingbird

/// The two cookies of ``RelyingPartyRoutes``: the login cookie, which binds a sign-in in progress to the browser
/// that started it, and the session cookie of a signed-in browser. Both are HttpOnly, SameSite=Lax, Path=/, and
/// Secure with the `__Host-` name prefix unless the service runs on plain HTTP on a loopback address.
struct RelyingPartyCookies: Sendable {
    let secure: Bool
    let loginName: String
    let sessionName: String

    init(namePrefix: String, secure: Bool) {
        self.secure = secure
        let prefix = secure ? "__Host-" + namePrefix : namePrefix
        loginName = prefix + "_login"
        sessionName = prefix + "_session"
    }

    func login(_ value: String, maxAge: Duration) -> Cookie {
        cookie(loginName, value, maxAge: maxAge)
    }

    func session(_ value: String, maxAge: Duration) -> Cookie {
        cookie(sessionName, value, maxAge: maxAge)
    }

    /// A cookie that makes the browser forget `name`.
    func removal(of name: String) -> Cookie {
        Cookie(name: name, value: "", maxAge: 0, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }

    /// The value of cookie `name` when it has the shape this server gives its cookies (``SecretToken``), else nil.
    static func value(named name: String, in request: Request) -> String? {
        guard let value = request.cookies[name]?.value, SecretToken.isWellFormed(value) else { return nil }
        return value
    }

    private func cookie(_ name: String, _ value: String, maxAge: Duration) -> Cookie {
        Cookie(
            name: name, value: value, maxAge: Int(maxAge.components.seconds), path: "/", secure: secure,
            httpOnly: true, sameSite: .lax)
    }
}
