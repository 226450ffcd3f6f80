import SSOKitExtension
import Synchronization

/// The adapter a server runs, replaceable while it serves: a profile reload swaps it, requests in flight finish on
/// the adapter they started with, and the next request sees the new one.
public final class AdapterSlot: Sendable {
    private let current: Mutex<RedirectExtension>

    /// A slot holding `adapter`.
    public init(_ adapter: RedirectExtension) {
        current = Mutex(adapter)
    }

    /// The adapter now.
    public var adapter: RedirectExtension { current.withLock { $0 } }

    /// Puts `replacement` in place, then performs the system's `configurationRemoved` (on the old adapter) for
    /// every payload of the old profile that the new one no longer has: what the OS does when a configuration
    /// profile is removed. Returns each removed payload's identifier with the removal's result.
    @discardableResult
    public func replace(with replacement: RedirectExtension) async -> [(payload: String, result: AuthorizationResult)] {
        let previous = current.withLock { value in
            let previous = value
            value = replacement
            return previous
        }
        var removals: [(payload: String, result: AuthorizationResult)] = []
        for payload in previous.catalog.payloads
        where replacement.catalog.payload(identifier: payload.identifier) == nil {
            removals.append((payload.identifier, await previous.removeConfiguration(ofPayload: payload.identifier)))
        }
        return removals
    }
}
