import Foundation
import NIOSSL

/// The server TLS contexts for intercepted hosts, one per host, issued on first use and kept (at most `capacity`,
/// least recently used out first) until a day before their leaf expires.
actor LeafContextCache {
    private struct Entry {
        let context: NIOSSLContext
        let renewAfter: Date
        var lastUse: UInt64
    }

    private let authority: LocalCertificateAuthority
    private let capacity: Int
    private var entries: [String: Entry] = [:]
    private var uses: UInt64 = 0

    init(authority: LocalCertificateAuthority, capacity: Int) {
        self.authority = authority
        self.capacity = max(1, capacity)
    }

    /// The context for the normalized `host`, issuing a leaf when none is cached or the cached one is near expiry.
    func context(for host: String, now: Date = Date()) throws(ProxyError) -> NIOSSLContext {
        uses += 1
        if var entry = entries[host], entry.renewAfter > now {
            entry.lastUse = uses
            entries[host] = entry
            return entry.context
        }
        let leaf = try authority.issueLeaf(for: host, now: now)
        let context = try TLSContexts.server(leaf: leaf)
        if entries[host] == nil, entries.count >= capacity,
            let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
        {
            entries[oldest] = nil
        }
        entries[host] = Entry(
            context: context, renewAfter: leaf.notValidAfter.addingTimeInterval(-86_400), lastUse: uses)
        return context
    }
}
