import Foundation

extension ProfileCatalog {
    /// The payload that handles a request to `url`: a Redirect payload's URL prefix first, else a Credential
    /// payload's host; nil when nothing matches (the request is not handled) or the URL is not http(s).
    public func match(_ url: URL) -> ProfileMatch? {
        guard let target = RequestTarget(url) else { return nil }
        return redirectMatch(target) ?? credentialMatch(normalizedHost: target.host)
    }

    /// The Redirect payload for `url`: scheme, host (ignoring case) and port equal to a prefix's, and a path that
    /// starts with the prefix's path; the longest such prefix wins.
    public func redirectMatch(_ url: URL) -> ProfileMatch? {
        RequestTarget(url).flatMap(redirectMatch)
    }

    /// The Credential payload for `host`: a configured host equal to it (ignoring case) wins, else the longest
    /// configured `.suffix` that it ends with.
    public func credentialMatch(host: String) -> ProfileMatch? {
        credentialMatch(normalizedHost: HostName.normalized(host))
    }

    private func redirectMatch(_ target: RequestTarget) -> ProfileMatch? {
        guard let rules = redirectRules[target.host] else { return nil }
        let path = target.path
        for rule in rules
        where rule.prefix.origin.port == target.port && rule.prefix.origin.scheme == target.scheme
            && rule.prefix.matches(path: path)
        {
            return ProfileMatch(payload: payloads[rule.payloadIndex], rule: .urlPrefix(rule.prefix))
        }
        return nil
    }

    private func credentialMatch(normalizedHost host: String) -> ProfileMatch? {
        guard !hostIndex.isEmpty, let rule = hostIndex.lookup(host) else { return nil }
        return ProfileMatch(payload: payloads[rule.payloadIndex], rule: .host(rule.host))
    }
}

/// What matching reads from a request URL, each part read once: http(s) scheme, normalized host, port.
private struct RequestTarget {
    let url: URL
    let scheme: String
    let host: String
    let port: Int

    init?(_ url: URL) {
        guard let scheme = url.scheme, let host = url.host(percentEncoded: true), !host.isEmpty else { return nil }
        switch scheme {
        case "https", "http": self.scheme = scheme
        default:
            let lowered = scheme.lowercased()
            guard lowered == "https" || lowered == "http" else { return nil }
            self.scheme = lowered
        }
        self.url = url
        self.host = HostName.normalized(host)
        self.port = url.port ?? (self.scheme == "https" ? 443 : 80)
    }

    /// The percent-encoded path, at least `/`; read only when a prefix is on the host.
    var path: String {
        let path = url.path(percentEncoded: true)
        return path.isEmpty ? "/" : path
    }
}
