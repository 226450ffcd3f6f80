import Foundation
import NIOCore
import SwiftASN1
import X509

/// The name constraints of a constrained authority: DNS subtrees for names, single addresses for IP literals, and
/// every IPv4 and IPv6 address excluded when no IP literal is listed (a constraint without any IP subtree would
/// leave IP names unconstrained, RFC 5280 §4.2.1.10).
struct HostNameConstraints {
    let names: [String]
    let addresses: [[UInt8]]

    /// Splits normalized hosts into DNS names and IP addresses.
    init(_ hosts: [String]) {
        var names: [String] = []
        var addresses: [[UInt8]] = []
        for host in hosts {
            if let bytes = Self.addressBytes(host) { addresses.append(bytes) } else { names.append(host) }
        }
        self.names = names
        self.addresses = addresses
    }

    /// Whether a normalized host falls within these constraints.
    func permits(_ host: String) -> Bool {
        if let bytes = Self.addressBytes(host) { return addresses.contains(bytes) }
        return names.contains { host == $0 || host.hasSuffix(".\($0)") }
    }

    /// The `NameConstraints` extension that says the same.
    func extensionValue() -> NameConstraints {
        let permittedRanges = addresses.map { ASN1OctetString(contentBytes: ArraySlice($0 + Self.fullMask($0.count))) }
        let excludedRanges: [ASN1OctetString] =
            addresses.isEmpty
            ? [
                ASN1OctetString(contentBytes: ArraySlice([UInt8](repeating: 0, count: 8))),
                ASN1OctetString(contentBytes: ArraySlice([UInt8](repeating: 0, count: 32))),
            ]
            : []
        return NameConstraints(
            permittedDNSDomains: names, permittedIPRanges: permittedRanges, excludedIPRanges: excludedRanges)
    }

    /// The network-order bytes of an IP literal, or nil for a DNS name.
    static func addressBytes(_ host: String) -> [UInt8]? {
        guard let address = try? SocketAddress(ipAddress: host, port: 0) else { return nil }
        switch address {
        case .v4(let v4):
            return withUnsafeBytes(of: v4.address.sin_addr) { Array($0) }
        case .v6(let v6):
            return withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) }
        default:
            return nil
        }
    }

    private static func fullMask(_ count: Int) -> [UInt8] { [UInt8](repeating: 0xff, count: count) }
}
