import Foundation
import SSOKitCore

/// A `URLs` entry of a Redirect payload: requests whose scheme, host (ignoring case) and port equal it and whose
/// path starts with its path go to the extension.
public struct RedirectURLPrefix: Sendable, Hashable, CustomStringConvertible {
    /// The URL as the profile wrote it.
    public let url: String
    /// Where it matches: scheme, host and port, normalized.
    public let origin: RequestOrigin
    /// The percent-encoded path prefix, at least `/`; compared byte for byte.
    public let path: String

    /// Checks a `URLs` entry: http(s), a host, no user info, query or fragment; plain http only on loopback.
    init(_ url: String) throws(RedirectURLPrefix.Rejection) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "https" || scheme == "http"
        else { throw Rejection(.invalidURL, "\(url) is not an http or https URL") }
        guard let rawHost = components.percentEncodedHost, !rawHost.isEmpty, !rawHost.contains("%") else {
            throw Rejection(.invalidURL, "\(url) has no host")
        }
        guard components.user == nil, components.password == nil else {
            throw Rejection(.invalidURL, "\(url) has user info")
        }
        guard components.query == nil else {
            throw Rejection(.invalidURL, "\(url) has a query, which a prefix may not")
        }
        guard components.fragment == nil else {
            throw Rejection(.invalidURL, "\(url) has a fragment, which a prefix may not")
        }
        let host = HostName.normalized(rawHost)
        guard HostName.isValid(host) else { throw Rejection(.invalidURL, "\(url) has an invalid host") }
        if let port = components.port, !(1...65535).contains(port) {
            throw Rejection(.invalidURL, "\(url) has an invalid port")
        }
        guard scheme == "https" || EndpointSecurity.isLoopback(host: host) else {
            throw Rejection(.insecureURL, "\(url) is plain http on a host that is not loopback")
        }
        self.url = url
        self.origin = RequestOrigin(scheme: scheme, normalizedHost: host, port: components.port)
        let path = components.percentEncodedPath
        self.path = path.isEmpty ? "/" : path
    }

    /// The URL as the profile wrote it.
    public var description: String { url }

    /// Whether a request path (percent-encoded, at least `/`) starts with this prefix's path.
    func matches(path requestPath: String) -> Bool {
        var requestPath = requestPath
        var prefix = path
        return requestPath.withUTF8 { request in
            prefix.withUTF8 { prefix in
                guard prefix.count <= request.count, let requestBytes = request.baseAddress,
                    let prefixBytes = prefix.baseAddress
                else { return prefix.isEmpty }
                return memcmp(requestBytes, prefixBytes, prefix.count) == 0
            }
        }
    }

    struct Rejection: Error {
        let code: ProfileProblem.Code
        let message: String
        init(_ code: ProfileProblem.Code, _ message: String) {
            self.code = code
            self.message = message
        }
    }
}
