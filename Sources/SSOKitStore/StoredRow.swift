import Foundation

/// One stored entry as a backend sees it: the plain key (never secret), the sealed value, and non-secret metadata.
public struct StoredRow: Sendable, Hashable {
    /// `TokenCacheKey.canonical` (SSOKitTokenCache).
    public var key: String
    /// The calling app, in plain so that listing and purging can filter by it.
    public var application: String
    /// The AES-GCM sealed `CachedTokens` (SSOKitTokenCache).
    public var sealed: [UInt8]
    /// When the entry stops being useful; nil when unknown.
    public var expiresAt: Date?
    /// Incremented by each write: lets backends detect a concurrent writer.
    public var version: Int64

    /// Creates a row.
    public init(key: String, application: String, sealed: [UInt8], expiresAt: Date?, version: Int64) {
        self.key = key
        self.application = application
        self.sealed = sealed
        self.expiresAt = expiresAt
        self.version = version
    }
}
