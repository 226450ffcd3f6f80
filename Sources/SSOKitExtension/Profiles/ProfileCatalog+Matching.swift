import Foundation

extension ProfileCatalog {
    /// The payload that handles a request to `url`: a Redirect payload's URL prefix first, else a Credential
    /// payload's host; nil when nothing matches (the request is not handled).
    public func match(_ url: URL) -> ProfileMatch? {
        redirectMatch(url) ?? url.host(percentEncoded: true).flatMap { credentialMatch(host: $0) }
    }

    /// The Redirect payload for `url`: scheme, host (ignoring case) and port equal to a prefix's, and a path that
    /// starts with the prefix's path; the longest such prefix wins.
    public func redirectMatch(_ url: URL) -> ProfileMatch? {
        guard !redirectRules.isEmpty, let origin = RequestOrigin(url), let rules = redirectRules[origin] else {
            return nil
        }
        var path = url.path(percentEncoded: true)
        if path.isEmpty { path = "/" }
        for rule in rules where rule.prefix.matches(path: path) {
            return ProfileMatch(payload: payloads[rule.payloadIndex], rule: .urlPrefix(rule.prefix))
        }
        return nil
    }

    /// The Credential payload for `host`: a configured host equal to it (ignoring case) wins, else the longest
    /// configured `.suffix` that it ends with.
    public func credentialMatch(host: String) -> ProfileMatch? {
        guard !exactHosts.isEmpty || !suffixHosts.isEmpty else { return nil }
        let name = HostName.normalized(host)
        if let rule = exactHosts[name] ?? longestSuffix(of: name) {
            return ProfileMatch(payload: payloads[rule.payloadIndex], rule: .host(rule.host))
        }
        return nil
    }

    /// The rule of the longest `.suffix` of `name`: tried from the first dot on, so the longest comes first.
    private func longestSuffix(of name: String) -> HostRule? {
        guard !suffixHosts.isEmpty else { return nil }
        var rest = Substring(name)
        while let dot = rest.firstIndex(of: ".") {
            let suffix = rest[dot...]
            if let rule = suffixHosts[String(suffix)] { return rule }
            rest = suffix.dropFirst()
        }
        return nil
    }
}
