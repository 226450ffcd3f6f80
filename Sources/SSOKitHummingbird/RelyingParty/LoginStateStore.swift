import Foundation
import Hummingbird
import SSOKitCore

/// Sign-ins in progress, in the service's persist driver (memory, Valkey, PostgreSQL: whatever the service runs),
/// under the digest of their `state` or RelayState.
///
/// Each can be completed once: taking one first creates a "used" marker with `create`, which the driver performs
/// atomically, so that of two requests racing with the same `state` only one wins, also across instances that
/// share a driver. A record outlives its expiry by ``grace`` so that a late callback is told "expired" rather than
/// "unknown".
struct LoginStateStore: Sendable {
    let driver: any PersistDriver
    let keyPrefix: String
    let lifetime: Duration
    let clock: any SSOKitClock

    static let grace: Duration = .seconds(600)
    /// The longest `state` or RelayState looked up; longer ones are unknown by definition.
    static let maximumKeyBytes = 512

    /// Keeps `state` under `key` (the `state` or RelayState sent to the IdP).
    func begin(_ state: LoginState, key: String) async throws(RelyingPartyError) {
        do {
            try await driver.create(key: recordKey(key), value: state, expires: lifetime + Self.grace)
        } catch {
            throw .storageFailed()
        }
    }

    /// The sign-in under `key`, removed for good, if `browserCookie` is the cookie of the browser that started it.
    ///
    /// A request from another browser takes nothing, so that it cannot spoil the real browser's sign-in.
    func take(key: String, browserCookie: String?) async throws(RelyingPartyError) -> LoginState {
        guard !key.isEmpty else { throw .stateMissing }
        guard key.utf8.count <= Self.maximumKeyBytes else { throw .stateUnknown }
        let record = recordKey(key)
        let state: LoginState?
        do {
            state = try await driver.get(key: record, as: LoginState.self)
        } catch {
            throw .storageFailed()
        }
        guard let state else {
            throw await wasUsed(record) ? .stateReplayed : .stateUnknown
        }
        guard let browserCookie,
            ConstantTime.equals(SecretToken.digest(browserCookie), state.browserDigest)
        else { throw .wrongBrowser }
        do {
            try await driver.create(key: record + ".used", value: true, expires: lifetime + Self.grace)
        } catch let error as PersistError where error == .duplicate {
            throw .stateReplayed
        } catch {
            throw .storageFailed()
        }
        try? await driver.remove(key: record)
        guard clock.now < state.expiresAt else { throw .stateExpired }
        return state
    }

    private func recordKey(_ key: String) -> String { keyPrefix + "login." + SecretToken.digest(key) }

    private func wasUsed(_ record: String) async -> Bool {
        ((try? await driver.get(key: record + ".used", as: Bool.self)) ?? nil) != nil
    }
}
