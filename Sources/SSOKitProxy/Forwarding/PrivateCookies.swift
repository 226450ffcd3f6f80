import NIOHTTP1

/// Cookies that belong to the proxy's host, not to the origin (``ProxyConfiguration/privateCookieNamePrefixes``):
/// removed from every request the proxy forwards, so that the origin and the network path never see them.
enum PrivateCookies {
    /// Removes from `headers`' `Cookie` fields every cookie whose name starts with one of `prefixes`; a field left
    /// empty is dropped. Nothing changes when `prefixes` is empty.
    static func remove(_ prefixes: [String], from headers: inout HTTPHeaders) {
        guard !prefixes.isEmpty, headers.contains(name: "cookie") else { return }
        let values = headers["cookie"]
        headers.remove(name: "cookie")
        for value in values {
            let kept = value.split(separator: ";").map { $0.drop { $0 == " " || $0 == "\t" } }.filter { pair in
                let name = pair.prefix { $0 != "=" }
                return !prefixes.contains { name.hasPrefix($0) }
            }
            if !kept.isEmpty { headers.add(name: "Cookie", value: kept.joined(separator: "; ")) }
        }
    }
}
