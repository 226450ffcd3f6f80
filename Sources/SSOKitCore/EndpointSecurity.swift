import Foundation

/// The rule for identity-provider URLs: `https`, except plain `http` on loopback hosts.
public enum EndpointSecurity {
    /// Whether `host` is a loopback name or address: `localhost`, 127.0.0.0/8 or `::1`.
    public static func isLoopback(host: String) -> Bool {
        var host = host.lowercased()
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host == "localhost" || host == "::1" || host == "0:0:0:0:0:0:0:1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets[0] == "127" else { return false }
        return octets.allSatisfy { octet in
            !octet.isEmpty && octet.count <= 3 && octet.allSatisfy(\.isASCII) && octet.allSatisfy(\.isNumber)
                && (UInt16(octet).map { $0 <= 255 } ?? false)
        }
    }

    /// Whether `url` may be used to talk to an identity provider: absolute, with a host, no user info, and
    /// `https` unless the host is loopback.
    public static func isAllowed(_ url: URL) -> Bool {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), let host = components.host, !host.isEmpty,
            components.user == nil, components.password == nil
        else { return false }
        switch scheme {
        case "https": return true
        case "http": return isLoopback(host: host)
        default: return false
        }
    }
}
