import Crypto
import Foundation
import SSOKitCore
import SSOKitStore

/// Persists rights under identifiers in a token-cache backend (in-memory, SQLite or PostgreSQL). Each persisted
/// right gets a new P-256 key pair and may hold one secret; both are sealed per way of satisfying its requirement,
/// under keys that need the passphrases involved. Requirements cannot change once persisted.
///
/// `deviceKey` (256 bits) is mixed into every seal, into each passphrase's stored check value and into the
/// authenticator of the attempt counters: keep it outside the store, like the cache key.
public struct RightStore: Sendable {
    private let records: any RightRecordStore
    private let deviceKey: RightDeviceKey
    private let sealer: RightSlotSealer
    private let attemptPolicy: RightAttemptPolicy
    private let clock: any SSOKitClock

    /// Creates a store over `records`.
    public init(
        records: any RightRecordStore, deviceKey: SymmetricKey, attemptPolicy: RightAttemptPolicy = .standard,
        clock: any SSOKitClock = SystemClock()
    ) throws(RightError) {
        guard deviceKey.bitCount == 256 else { throw RightError(.invalidRequirement, "the device key is 256 bits") }
        self.records = records
        self.deviceKey = RightDeviceKey(deviceKey)
        self.sealer = RightSlotSealer(deviceKey: self.deviceKey)
        self.attemptPolicy = attemptPolicy
        self.clock = clock
    }

    /// Identifiers: 1 to 128 characters from letters, digits and `.-_:@`.
    static func validate(identifier: String) throws(RightError) {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_:@")
        guard (1...128).contains(identifier.count), identifier.allSatisfy(allowed.contains) else {
            throw RightError(.invalidIdentifier, "an identifier is 1-128 letters, digits or .-_:@")
        }
    }

    /// Persists `right` under `identifier` with a new key pair and, when given, `secret` (at most 4 KiB). The
    /// right's passphrase requirements must have been created from their passphrases in this process.
    ///
    /// - Returns: the persisted right, not yet authorized, using `right`'s authenticator.
    /// - Throws: `already_exists`, `invalid_identifier`, `invalid_requirement`, `store_unavailable`.
    public func persist(_ right: Right, identifier: String, secret: [UInt8]? = nil) async throws(RightError)
        -> PersistedRight
    {
        try Self.validate(identifier: identifier)
        if let secret, secret.count > RightMaterial.maximumSecretBytes {
            throw RightError(.invalidRequirement, "a secret is at most \(RightMaterial.maximumSecretBytes) bytes")
        }
        let description = try RequirementDescription(right.requirement, check: .persisted(under: deviceKey))
        var leafKeys: [Int: SymmetricKey] = [:]
        for (position, leaf) in right.requirement.leaves.enumerated() {
            if case .passphrase(let passphrase) = leaf { leafKeys[position] = passphrase.creationKey }
        }
        let material = RightMaterial(privateKey: P256.Signing.PrivateKey(), secret: secret)
        let publicKey = material.privateKey.publicKey.x963Representation
        let binding = try RightRecord.binding(identifier: identifier, requirement: description, publicKey: publicKey)
        var slots: [RightRecord.Slot] = []
        for (index, alternative) in try right.requirement.alternatives().enumerated() {
            let keys = alternative.compactMap { leafKeys[$0] }
            let sealed = try sealer.seal(material.encoded, binding: binding, slot: index, passphraseKeys: keys)
            slots.append(RightRecord.Slot(leaves: alternative, sealed: sealed))
        }
        let record = RightRecord(
            version: RightRecord.currentVersion, requirement: description, publicKey: publicKey, slots: slots,
            hasSecret: secret != nil, createdAt: clock.now)
        var stored = StoredRightRecord(identifier: identifier, record: try record.encoded())
        stored.attempts = counterSeal(for: stored).seal(.none)
        let inserted = try await RightStoreError.wrap { () throws(TokenCacheError) in
            try await records.insertRight(stored)
        }
        guard inserted else { throw RightError(.alreadyExists, "a right named '\(identifier)' exists") }
        // The persisted right checks passphrases against the stored (device-bound) values, as a loaded one does.
        let custom = right.requirement.leaves.compactMap { leaf -> CustomRequirement? in
            if case .custom(let requirement) = leaf { requirement } else { nil }
        }
        return try makePersisted(
            stored: stored, record: record, requirement: try description.requirement(custom: Self.byName(custom)),
            authenticator: right.authenticator)
    }

    /// Loads the right persisted under `identifier`. Custom requirements are matched by name with
    /// `customRequirements`.
    ///
    /// - Throws: `not_found`, `record_unreadable`, `record_outdated` (persisted by an earlier SSOKit: delete the
    ///   right and create it again), `invalid_requirement` (a custom evaluator is missing), `store_unavailable`.
    public func right(
        forIdentifier identifier: String, authenticator: any RightAuthenticator,
        customRequirements: [CustomRequirement] = []
    ) async throws(RightError) -> PersistedRight {
        let (stored, record) = try await load(identifier)
        guard record.isCurrent else {
            throw RightError(
                .recordOutdated,
                "the right '\(identifier)' was persisted by an earlier SSOKit in a format that is no longer opened: "
                    + "delete it and create it again")
        }
        let requirement = try record.requirement.requirement(custom: Self.byName(customRequirements))
        try requirement.validate()
        return try makePersisted(
            stored: stored, record: record, requirement: requirement, authenticator: authenticator)
    }

    /// What can be said about a persisted right without authorizing it.
    public func summary(forIdentifier identifier: String) async throws(RightError) -> PersistedRightSummary {
        let (stored, record) = try await load(identifier)
        return PersistedRightSummary(
            identifier: identifier, requirement: record.requirement.summary, hasSecret: record.hasSecret,
            publicKey: try RightPublicKey(x963: Array(record.publicKey)), createdAt: record.createdAt,
            failedAttempts: stored.failedAttempts, lockedUntil: stored.lockedUntil, isOutdated: !record.isCurrent)
    }

    /// Every persisted identifier, sorted.
    public func identifiers() async throws(RightError) -> [String] {
        try await RightStoreError.wrap { () throws(TokenCacheError) in try await records.rightIdentifiers() }
    }

    /// Deletes the right persisted under `identifier`, its key and its secret.
    ///
    /// - Throws: `not_found`, `store_unavailable`.
    public func removeRight(forIdentifier identifier: String) async throws(RightError) {
        let removed = try await RightStoreError.wrap { () throws(TokenCacheError) in
            try await records.deleteRight(identifier: identifier)
        }
        guard removed else { throw RightError(.notFound, "no right named '\(identifier)'") }
    }

    private func load(_ identifier: String) async throws(RightError) -> (StoredRightRecord, RightRecord) {
        guard
            let stored = try await RightStoreError.wrap({ () throws(TokenCacheError) in
                try await records.right(identifier: identifier)
            })
        else { throw RightError(.notFound, "no right named '\(identifier)'") }
        return (stored, try RightRecord(decoding: stored.record))
    }

    /// Custom requirements by name; the first of a name wins.
    private static func byName(_ requirements: [CustomRequirement]) -> [String: CustomRequirement] {
        Dictionary(requirements.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    private func counterSeal(for stored: StoredRightRecord) -> AttemptCounterSeal {
        AttemptCounterSeal(deviceKey: deviceKey, identifier: stored.identifier, record: stored.record)
    }

    private func makePersisted(
        stored: StoredRightRecord, record: RightRecord, requirement: RightRequirement,
        authenticator: any RightAuthenticator
    ) throws(RightError) -> PersistedRight {
        let identifier = stored.identifier
        let binding = try RightRecord.binding(
            identifier: identifier, requirement: record.requirement, publicKey: record.publicKey)
        let unlocker = SlotUnlocker(sealer: sealer, binding: binding, slots: record.slots)
        let gate = StoredAttemptGate(
            store: records, identifier: identifier, policy: attemptPolicy, seal: counterSeal(for: stored))
        let right = Right(
            requirement: requirement, authenticator: authenticator, identifier: identifier, gate: gate,
            unlocker: unlocker, passphraseCheck: .persisted(under: deviceKey), clock: clock)
        return PersistedRight(
            identifier: identifier, right: right, publicKey: try RightPublicKey(x963: Array(record.publicKey)),
            hasSecret: record.hasSecret)
    }
}

/// Opens the first slot whose leaves were all met.
private struct SlotUnlocker: RightUnlocker {
    let sealer: RightSlotSealer
    let binding: [UInt8]
    let slots: [RightRecord.Slot]

    func unlock(leaves: Set<Int>, keys: [Int: SymmetricKey]) async throws(RightError) -> RightMaterial {
        for (index, slot) in slots.enumerated() where slot.leaves.allSatisfy(leaves.contains) {
            let slotKeys = slot.leaves.compactMap { keys[$0] }
            guard let plaintext = sealer.open(slot.sealed, binding: binding, slot: index, passphraseKeys: slotKeys)
            else { throw RightError(.recordUnreadable, "the right's sealed material does not open") }
            return try RightMaterial(encoded: plaintext)
        }
        throw RightError(.recordUnreadable, "no stored slot matches the requirements that were met")
    }
}

/// A persisted right as listed, without authorizing it.
public struct PersistedRightSummary: Sendable {
    /// The identifier.
    public var identifier: String
    /// The requirement's structure, labels and custom names.
    public var requirement: String
    /// Whether the right holds a secret.
    public var hasSecret: Bool
    /// The public key.
    public var publicKey: RightPublicKey
    /// When the right was persisted.
    public var createdAt: Date
    /// Failed authorizations since the last success.
    public var failedAttempts: Int
    /// The end of the current backoff, if any.
    public var lockedUntil: Date?
    /// Whether the right was persisted by an earlier SSOKit in a format that is no longer opened
    /// (`record_outdated`): delete it and create it again.
    public var isOutdated: Bool
}
