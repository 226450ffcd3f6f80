import Foundation
import SSOKitCore

/// Fetches and caches providers' discovery documents.
public actor DiscoveryClient {
    private struct Entry {
        let metadata: ProviderMetadata
        let fetchedAt: Date
    }

    private let transport: any HTTPTransport
    private let clock: any SSOKitClock
    private let maximumAge: TimeInterval
    private var entries: [String: Entry] = [:]

    /// Creates a client; documents are reused for `maximumAge` seconds (default one day).
    public init(transport: any HTTPTransport, clock: any SSOKitClock = SystemClock(), maximumAge: TimeInterval = 86_400)
    {
        self.transport = transport
        self.clock = clock
        self.maximumAge = maximumAge
    }

    /// The validated metadata of `issuer`, from the cache while fresh.
    public func metadata(for issuer: String) async throws(OIDCError) -> ProviderMetadata {
        if let entry = entries[issuer], clock.now.timeIntervalSince(entry.fetchedAt) < maximumAge {
            return entry.metadata
        }
        let url = try ProviderMetadata.discoveryURL(forIssuer: issuer)
        let body = try await ProviderHTTP.get(url, transport: transport, failure: .discoveryFailed)
        let metadata = try ProviderMetadata(jsonBytes: body, configuredIssuer: issuer)
        entries[issuer] = Entry(metadata: metadata, fetchedAt: clock.now)
        return metadata
    }
}
