import Crypto
import Foundation
import SSOKitCore
import Synchronization

/// An authorization right: requirements that must be met before something protected may be done, and a lifecycle
/// (unknown → authorizing → authorized / notAuthorized). A deallocated right is no longer authorized: keep a strong
/// reference while the authorization should last.
///
/// Rights that own a key and a secret come from a ``RightStore`` as ``PersistedRight``.
public final class Right: Sendable {
    /// What must be satisfied.
    public let requirement: RightRequirement
    /// Identifies this instance in ``RightChanges`` streams.
    public let id = UUID()
    let authenticator: any RightAuthenticator
    let identifier: String?
    private let gate: any RightAttemptGate
    private let unlocker: (any RightUnlocker)?
    private let passphraseCheck: PassphraseCheck
    private let clock: any SSOKitClock
    private let box = Mutex(Box())

    private struct Box: ~Copyable {
        var state = RightState.unknown
        var material: RightMaterial?
        var observers: [UUID: AsyncStream<RightState>.Continuation] = [:]
    }

    /// Creates a right that asks `authenticator` for passphrases and counts failures in memory under `attemptPolicy`.
    public convenience init(
        requirement: RightRequirement, authenticator: any RightAuthenticator,
        attemptPolicy: RightAttemptPolicy = .standard, clock: any SSOKitClock = SystemClock()
    ) throws(RightError) {
        try requirement.validate()
        self.init(
            requirement: requirement, authenticator: authenticator, identifier: nil,
            gate: InMemoryAttemptGate(policy: attemptPolicy), unlocker: nil, passphraseCheck: .inMemory, clock: clock)
    }

    init(
        requirement: RightRequirement, authenticator: any RightAuthenticator, identifier: String?,
        gate: any RightAttemptGate, unlocker: (any RightUnlocker)?, passphraseCheck: PassphraseCheck,
        clock: any SSOKitClock
    ) {
        self.requirement = requirement
        self.authenticator = authenticator
        self.identifier = identifier
        self.gate = gate
        self.unlocker = unlocker
        self.passphraseCheck = passphraseCheck
        self.clock = clock
    }

    deinit {
        let (wasAuthorized, observers) = box.withLock { box in
            let wasAuthorized = box.state == .authorized || box.state == .authorizing
            box.material = nil
            return (wasAuthorized, Array(box.observers.values))
        }
        for observer in observers {
            if wasAuthorized { observer.yield(.notAuthorized) }
            observer.finish()
        }
        if wasAuthorized {
            RightChanges.post(RightStateChange(rightID: id, identifier: identifier, state: .notAuthorized))
        }
    }

    /// The current state.
    public var state: RightState { box.withLock { $0.state } }

    /// The current state, then every change, until the right is deallocated.
    public var stateUpdates: AsyncStream<RightState> {
        let key = UUID()
        let (stream, continuation) = AsyncStream<RightState>.makeStream(bufferingPolicy: .bufferingNewest(64))
        continuation.onTermination = { [weak self] _ in
            _ = self?.box.withLock { $0.observers.removeValue(forKey: key) }
        }
        box.withLock { box in
            continuation.yield(box.state)
            box.observers[key] = continuation
        }
        return stream
    }

    /// Evaluates the requirements, asking the authenticator and the custom evaluators; on success the right is
    /// authorized (and a persisted right's key and secret become usable) until ``deauthorize()``.
    ///
    /// Each call is counted as a failed attempt before anything is asked (atomically in the store, for a persisted
    /// right), and only a success resets the count, so concurrent attempts from several processes are all counted.
    ///
    /// - Throws: `authorization_denied`, `cancelled` (both counted), `locked_out` (after too many failures; nothing
    ///   is asked), `authorization_in_progress`, `record_unreadable` (a persisted right whose record or attempt
    ///   counters do not verify; nothing is asked), or a store failure.
    public func authorize(localizedReason: String) async throws(RightError) {
        let started = box.withLock { box -> Bool? in
            switch box.state {
            case .authorized: return nil
            case .authorizing: return false
            case .unknown, .notAuthorized:
                box.state = .authorizing
                return true
            }
        }
        guard let started else { return }
        guard started else { throw RightError(.authorizationInProgress, "the right is being authorized") }
        announce(.authorizing)
        do throws(RightError) {
            try await gate.begin(now: clock.now)
            let outcome = try await requirement.evaluate(
                reason: localizedReason, identifier: identifier, authenticator: authenticator, check: passphraseCheck)
            guard case .satisfied(let leaves, let keys) = outcome else {
                throw RightError(.authorizationDenied, "the requirements were not met")
            }
            let material = try await unlocker?.unlock(leaves: leaves, keys: keys)
            try await gate.recordSuccess()
            box.withLock { box in
                box.material = material
                box.state = .authorized
            }
            announce(.authorized)
        } catch {
            box.withLock { box in
                box.material = nil
                box.state = .notAuthorized
            }
            announce(.notAuthorized)
            throw error
        }
    }

    /// Ends the authorization: protected operations fail until the next ``authorize(localizedReason:)``.
    public func deauthorize() {
        let changed = box.withLock { box -> Bool in
            box.material = nil
            guard box.state == .authorized else { return false }
            box.state = .notAuthorized
            return true
        }
        if changed { announce(.notAuthorized) }
    }

    /// Runs `body` with the unlocked material; `not_authorized` unless authorized.
    func withMaterial<T>(_ body: (RightMaterial) throws(RightError) -> T) throws(RightError) -> T {
        let material = box.withLock { box in box.state == .authorized ? box.material : nil }
        guard let material else { throw RightError(.notAuthorized, "the right is not authorized") }
        return try body(material)
    }

    private func announce(_ state: RightState) {
        let observers = box.withLock { Array($0.observers.values) }
        for observer in observers { observer.yield(state) }
        RightChanges.post(RightStateChange(rightID: id, identifier: identifier, state: state))
    }
}

/// Opens a persisted right's sealed material with what an authorization produced.
protocol RightUnlocker: Sendable {
    func unlock(leaves: Set<Int>, keys: [Int: SymmetricKey]) async throws(RightError) -> RightMaterial
}
