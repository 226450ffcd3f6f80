import Foundation

/// The name an IdP session (its cookie jar) is kept under: the origin the IdP's login pages live on
/// (`scheme://host:port`, lower case), as a browser keeps one set of cookies per site. Payloads whose IdP serves
/// OIDC and SAML from one origin therefore share one login, and ending that session ends it for both.
enum IdPSessionName {
    /// The origin of `url`, or nil when it is not an absolute http(s) URL with a host.
    static func origin(of url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "https" || scheme == "http", let host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        let port = components.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(host):\(port)"
    }
}
