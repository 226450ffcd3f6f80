import Crypto
import Foundation

/// The immutable record of a persisted right, as JSON inside ``StoredRightRecord/record``: the requirement's
/// description, the public key, and one sealed copy of the material per way of satisfying the requirement.
struct RightRecord: Codable, Sendable {
    /// One sealed copy of the material, openable by the leaves listed.
    struct Slot: Codable, Sendable {
        var leaves: [Int]
        var sealed: Data
    }

    var version: Int
    var requirement: RequirementDescription
    var publicKey: Data
    var slots: [Slot]
    var hasSecret: Bool
    var createdAt: Date

    /// Records larger than this are refused before decoding.
    static let maximumBytes = 64 * 1024

    /// The version written and the only one opened. Version 1 (SSOKit schema 2) stored a passphrase check value that
    /// the stored rows alone let a thief test guesses against; such records are listed but refused with
    /// `record_outdated`.
    static let currentVersion = 2

    /// Whether the record is in the format this code opens.
    var isCurrent: Bool { version == Self.currentVersion }

    func encoded() throws(RightError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.dateEncodingStrategy = .secondsSince1970
        guard let data = try? encoder.encode(self) else {
            throw RightError(.cryptoFailure, "the right's record cannot be encoded")
        }
        return Array(data)
    }

    init(
        version: Int, requirement: RequirementDescription, publicKey: Data, slots: [Slot], hasSecret: Bool,
        createdAt: Date
    ) {
        self.version = version
        self.requirement = requirement
        self.publicKey = publicKey
        self.slots = slots
        self.hasSecret = hasSecret
        self.createdAt = createdAt
    }

    init(decoding bytes: [UInt8]) throws(RightError) {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        guard bytes.count <= Self.maximumBytes, let record = try? decoder.decode(RightRecord.self, from: Data(bytes)),
            (1...Self.currentVersion).contains(record.version), !record.slots.isEmpty,
            record.slots.count <= RightRequirement.maximumAlternatives
        else { throw RightError(.recordUnreadable, "a stored right's record is malformed") }
        self = record
    }

    /// Binds every slot to the identifier, the requirement and the public key: editing any of them in the store
    /// makes the slots fail to open.
    static func binding(identifier: String, requirement: RequirementDescription, publicKey: Data) throws(RightError)
        -> [UInt8]
    {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        guard let requirementBytes = try? encoder.encode(requirement) else {
            throw RightError(.cryptoFailure, "the requirement cannot be encoded")
        }
        var hasher = SHA256()
        for part in [Data(identifier.utf8), requirementBytes, publicKey] {
            hasher.update(data: withUnsafeBytes(of: UInt64(part.count).bigEndian) { Data($0) })
            hasher.update(data: part)
        }
        return Array(hasher.finalize())
    }
}
