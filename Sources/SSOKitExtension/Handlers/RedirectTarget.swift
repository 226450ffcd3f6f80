import Foundation

/// Where an intercepted request may send the browser back to.
enum RedirectTarget {
    /// Schemes a browser would run or read locally rather than navigate to: never a redirect target.
    private static let refusedSchemes: Set<String> = ["javascript", "data", "vbscript", "file", "blob", "about"]

    /// Whether `uri` can be a redirect URI: absolute, with a scheme that is navigated to.
    static func isAcceptableRedirectURI(_ uri: String) -> Bool {
        guard let scheme = URLComponents(string: uri)?.scheme?.lowercased(), !scheme.isEmpty else { return false }
        return !refusedSchemes.contains(scheme)
    }

    /// Whether `location` is `redirectURI` itself or it with a query or fragment added (RFC 6749 §3.1.2: the
    /// authorization response goes to the redirect URI, with parameters appended).
    static func location(_ location: String, isUnder redirectURI: String) -> Bool {
        guard isAcceptableRedirectURI(redirectURI), location.hasPrefix(redirectURI) else { return false }
        let rest = location.dropFirst(redirectURI.count)
        guard let next = rest.first else { return true }
        return next == "?" || next == "#" || (next == "&" && redirectURI.contains("?"))
    }

    /// Whether `location` is an http(s) URL, the only kind an IdP's own redirect away may be.
    static func isWebLocation(_ location: URL) -> Bool {
        let scheme = location.scheme?.lowercased()
        return scheme == "https" || scheme == "http"
    }
}
