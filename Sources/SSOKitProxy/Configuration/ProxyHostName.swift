import NIOCore

/// Host names as the proxy compares them: ASCII lower case, IPv6 brackets and one trailing dot removed, and only
/// DNS labels or IP literals accepted, so that a host can be written into a PAC file, a certificate or a log line
/// without escaping surprises.
enum ProxyHostName {
    /// The normalized form of `host`, or nil when it is not DNS labels (letters, digits, `-`, `_`; 1 to 63 bytes
    /// each; at most 253 in all) nor an IPv4 or IPv6 literal.
    static func normalized(_ host: some StringProtocol) -> String? {
        var text = Substring(host)
        if text.hasPrefix("[") {
            guard text.hasSuffix("]") else { return nil }
            text = text.dropFirst().dropLast()
            return isIPv6Literal(text) ? text.lowercased() : nil
        }
        if text.hasSuffix(".") { text = text.dropLast() }
        let lowered = text.lowercased()
        if lowered.contains(":") { return isIPv6Literal(Substring(lowered)) ? lowered : nil }
        return isDNSName(lowered) ? lowered : nil
    }

    /// Whether a normalized host is an IP literal (v4 or v6) rather than a DNS name.
    static func isIPAddress(_ host: String) -> Bool {
        (try? SocketAddress(ipAddress: host, port: 0)) != nil
    }

    /// The host as it goes into an authority (`host:port`): IPv6 literals in brackets.
    static func authorityForm(_ host: String) -> String {
        host.contains(":") ? "[\(host)]" : host
    }

    private static func isIPv6Literal(_ text: Substring) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 45 else { return false }
        guard case .v6 = try? SocketAddress(ipAddress: String(text), port: 0) else { return false }
        return true
    }

    private static func isDNSName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 253 else { return false }
        return name.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).allSatisfy { label in
            !label.isEmpty && label.count <= 63 && label.allSatisfy(isLabelByte)
        }
    }

    private static func isLabelByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "-"), UInt8(ascii: "_"): true
        default: false
        }
    }
}
