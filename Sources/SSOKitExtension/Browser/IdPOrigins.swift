import Foundation

/// The origins (scheme, host, port) that belong to one identity provider: the IdP browser follows redirects and
/// posts forms only within them, and a redirect elsewhere is where a login leaves the IdP.
struct IdPOrigins: Sendable {
    private var origins: Set<String>

    /// The origins of `urls`.
    init(_ urls: [URL]) {
        origins = Set(urls.compactMap(Self.origin))
    }

    /// Adds the origin of `url`.
    mutating func insert(_ url: URL) {
        if let origin = Self.origin(url) { origins.insert(origin) }
    }

    /// Whether `url` is on one of the origins.
    func contains(_ url: URL) -> Bool {
        Self.origin(url).map(origins.contains) ?? false
    }

    /// `scheme://host:port`, lower case, the default port filled in.
    static func origin(_ url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http",
            let host = url.host?.lowercased(), !host.isEmpty
        else { return nil }
        return "\(scheme)://\(host):\(url.port ?? (scheme == "https" ? 443 : 80))"
    }
}
