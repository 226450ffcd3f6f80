import Hummingbird

/// The IdP's two cookies, both HttpOnly and SameSite=Lax, on the whole site. They hold random secrets; the server
/// keeps only their hashes.
enum IdPCookies {
    /// The browser session.
    static let session = "ssokit_devidp_session"
    /// The handle of the page the browser is on (login form, logout confirmation).
    static let interaction = "ssokit_devidp_interaction"

    /// Sets `name` to `value` for `maxAge` seconds.
    static func set(_ name: String, value: String, maxAge: Int) -> Cookie {
        Cookie(name: name, value: value, maxAge: maxAge, path: "/", httpOnly: true, sameSite: .lax)
    }

    /// Deletes `name`.
    static func clear(_ name: String) -> Cookie {
        Cookie(name: name, value: "", maxAge: 0, path: "/", httpOnly: true, sameSite: .lax)
    }
}
