import Foundation
import HTTPTypes
import SSOKitCore
import Synchronization

/// A provider's JWK set fetched from its `jwks_uri`, kept across tokens, refetched on rotation.
///
/// A token with an unknown `kid` triggers at most one refetch per ``Configuration/minimumRefreshInterval``; a
/// failed fetch keeps the last good set; concurrent loads share one request. Failures are rate-limited too: when
/// the first fetch fails, tokens arriving within the interval fail at once with the same error instead of each
/// fetching again.
public actor JWKSCache: VerificationKeySource {
    /// Timing of refetches.
    public struct Configuration: Sendable {
        /// The shortest time between two fetches triggered by unknown keys.
        public var minimumRefreshInterval: TimeInterval
        /// How long a fetched set is used before it is fetched again on the next load.
        public var maximumAge: TimeInterval

        /// Creates timing; defaults: one refetch a minute at most, sets reused for an hour.
        public init(minimumRefreshInterval: TimeInterval = 60, maximumAge: TimeInterval = 3600) {
            self.minimumRefreshInterval = minimumRefreshInterval
            self.maximumAge = maximumAge
        }
    }

    private struct Snapshot: Sendable {
        let keys: JSONWebKeySet
        let fetchedAt: Date
    }

    /// The JWK set's URL.
    public nonisolated let url: URL
    private let transport: any HTTPTransport
    private let clock: any SSOKitClock
    private let configuration: Configuration
    private nonisolated let snapshot = Mutex<Snapshot?>(nil)
    private var lastFetchAttempt: Date?
    /// The error of the last fetch when it failed; repeated to callers until the interval allows a new try.
    private var lastFailure: OIDCError?
    private var inFlight: Task<JSONWebKeySet, any Error>?
    /// How many HTTP fetches this cache has started; for tests and metrics.
    public private(set) var fetchCount = 0

    /// Creates a cache for `url`, which must be https or on a loopback host.
    public init(
        url: URL, transport: any HTTPTransport, clock: any SSOKitClock = SystemClock(),
        configuration: Configuration = .init()
    ) throws(OIDCError) {
        guard EndpointSecurity.isAllowed(url) else {
            throw OIDCError(.insecureURL, "the jwks_uri must be https (or http on a loopback host)")
        }
        self.url = url
        self.transport = transport
        self.clock = clock
        self.configuration = configuration
    }

    /// The last good set while it is younger than the maximum age, without waiting; `nil` when none is held or
    /// it is due for a refetch (then ``loadKeys()`` refetches it, or keeps it if that fails).
    public nonisolated func cachedKeys() -> JSONWebKeySet? {
        let now = clock.now
        return snapshot.withLock { current in
            guard let current, now.timeIntervalSince(current.fetchedAt) < configuration.maximumAge else { return nil }
            return current.keys
        }
    }

    /// The current set: cached while younger than the maximum age, else fetched (the stale set is kept and
    /// returned if that fetch fails, and while a stale set is held, fetches are at most one per
    /// ``Configuration/minimumRefreshInterval``).
    public func loadKeys() async throws(OIDCError) -> JSONWebKeySet {
        let now = clock.now
        let current = snapshot.withLock { $0 }
        if let current, now.timeIntervalSince(current.fetchedAt) < configuration.maximumAge {
            return current.keys
        }
        if let last = lastFetchAttempt, now.timeIntervalSince(last) < configuration.minimumRefreshInterval {
            if let current { return current.keys }
            // Nothing was ever loaded and the last try failed: do not ask the endpoint again yet. A fetch still in
            // flight is joined instead.
            if inFlight == nil, let lastFailure { throw lastFailure }
        }
        do {
            return try await fetch()
        } catch {
            if let current { return current.keys }
            throw error
        }
    }

    /// Refetches for an unknown `kid` unless a fetch happened within the minimum interval.
    public func refreshForUnknownKey() async -> JSONWebKeySet? {
        if let last = lastFetchAttempt, clock.now.timeIntervalSince(last) < configuration.minimumRefreshInterval {
            return nil
        }
        return try? await fetch()
    }

    private func fetch() async throws(OIDCError) -> JSONWebKeySet {
        let task: Task<JSONWebKeySet, any Error>
        if let inFlight {
            task = inFlight
        } else {
            lastFetchAttempt = clock.now
            fetchCount += 1
            let url = self.url
            let transport = self.transport
            task = Task { try await Self.download(url, transport: transport) }
            inFlight = task
        }
        do {
            let keys = try await task.value
            if inFlight == task {
                inFlight = nil
                lastFailure = nil
                let fetchedAt = clock.now
                snapshot.withLock { $0 = Snapshot(keys: keys, fetchedAt: fetchedAt) }
            }
            return keys
        } catch {
            let failure =
                error as? OIDCError ?? OIDCError(.jwksFetchFailed, "fetching the JWK set failed")
            if inFlight == task {
                inFlight = nil
                lastFailure = failure
            }
            throw failure
        }
    }

    private static func download(_ url: URL, transport: any HTTPTransport) async throws(OIDCError) -> JSONWebKeySet {
        let body = try await ProviderHTTP.get(url, transport: transport, failure: .jwksFetchFailed)
        return try JSONWebKeySet(jsonBytes: body)
    }
}
