/// A proxy auto-config (PAC) file that sends only the intercept prefixes' origins (scheme, host and port) through
/// the proxy and every other URL `DIRECT`.
///
/// Host names come from profiles and are hostile until checked: every origin was validated as DNS labels or an IP
/// literal when its ``InterceptPrefix`` was parsed, the proxy's own host is validated here, and every value is
/// written as a JavaScript string whose characters outside `[a-z0-9.-]` are `\u` escapes, so no profile can
/// inject script into the file.
public struct ProxyAutoConfig: Sendable {
    /// The media type to serve the file with.
    public static let contentType = "application/x-ns-proxy-autoconfig"

    /// The origins that go through the proxy, sorted.
    public let origins: [ProxyOrigin]
    /// The `PROXY host:port` directive for them.
    public let directive: String

    /// A PAC for `prefixes` through the proxy at `proxyHost` (an IP literal or DNS name) and `proxyPort`.
    public init(prefixes: [InterceptPrefix], proxyHost: String = "127.0.0.1", proxyPort: Int) throws(ProxyError) {
        guard let host = ProxyHostName.normalized(proxyHost), (1...65535).contains(proxyPort) else {
            throw ProxyError(.invalidHost, "the proxy's host or port cannot go into a PAC file")
        }
        origins = Set(prefixes.map(\.origin)).sorted { $0.description < $1.description }
        directive = "PROXY \(ProxyHostName.authorityForm(host)):\(proxyPort)"
    }

    /// The JavaScript text of the file.
    public var script: String {
        let keys = origins.map { "        \(Self.literal(Self.key($0))): true" }.joined(separator: ",\n")
        return """
            // SSOKit: only these origins go through the intercepting proxy; everything else goes DIRECT.
            function FindProxyForURL(url, host) {
                var origins = {
            \(keys)
                };
                var parts = /^([A-Za-z][A-Za-z0-9+.-]*):\\/\\/(?:[^\\/?#@]*@)?(\\[[^\\]\\/?#]*\\]|[^:\\/?#]*)(?::([0-9]+))?/.exec(url);
                if (!parts) return "DIRECT";
                var scheme = parts[1].toLowerCase();
                var name = parts[2].toLowerCase();
                if (name.charAt(0) === "[") name = name.substring(1, name.length - 1);
                if (name.charAt(name.length - 1) === ".") name = name.substring(0, name.length - 1);
                var port = parts[3] ? parseInt(parts[3], 10) : (scheme === "https" ? 443 : (scheme === "http" ? 80 : 0));
                var key = scheme + " " + name + " " + port;
                if (Object.prototype.hasOwnProperty.call(origins, key)) return \(Self.literal(directive));
                return "DIRECT";
            }

            """
    }

    /// How the script names an origin: `scheme host port`, space-separated (no host contains a space).
    static func key(_ origin: ProxyOrigin) -> String { "\(origin.scheme) \(origin.host) \(origin.port)" }

    /// A double-quoted JavaScript string of `text`, with every character outside `[A-Za-z0-9 .:-]` escaped.
    static func literal(_ text: String) -> String {
        var result = "\""
        for unit in text.utf16 {
            switch unit {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x20, 0x2E, 0x3A, 0x2D:
                result.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
            default:
                let hex = String(unit, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return result + "\""
    }
}
