import ArgumentParser
import Foundation
import SSOKitCore
import SSOKitOIDC
import SSOKitRights

/// `ssokit rights create|list|authorize|delete`: passphrase rights persisted in the store, each with a P-256 key.
struct RightsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rights", abstract: "Manage persisted rights (a passphrase, a P-256 key, an optional secret).",
        subcommands: [
            RightsCreateCommand.self, RightsListCommand.self, RightsAuthorizeCommand.self,
            RightsDeleteCommand.self,
        ])
}

enum RightOutput {
    static func members(_ summary: PersistedRightSummary) -> [String: JSONValue] {
        [
            "identifier": .string(summary.identifier), "requirement": .string(summary.requirement),
            "has_secret": .bool(summary.hasSecret), "public_key_jwk_thumbprint": .string(summary.publicKey.thumbprint),
            "created_at": .integer(Int64(summary.createdAt.timeIntervalSince1970)),
            "failed_attempts": .integer(Int64(summary.failedAttempts)), "outdated": .bool(summary.isOutdated),
            "locked_until": summary.lockedUntil.map {
                $0 == .distantFuture ? .string("forever") : .integer(Int64($0.timeIntervalSince1970))
            } ?? .null,
        ]
    }
}

/// `ssokit rights create ID [--random-secret]`.
struct RightsCreateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create", abstract: "Create a passphrase right with a new P-256 key (passphrase asked twice).")

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The right's identifier (letters, digits, .-_:@).")
    var identifier: String
    @Flag(name: .customLong("random-secret"), help: "Store a random 32-byte secret with the right.")
    var randomSecret = false

    func run() async throws {
        try await CLIOutput.run {
            try await CacheContext.withRights(storeOptions) { rights in
                let authenticator = TerminalAuthenticator()
                let passphrase = try authenticator.newPassphrase(label: identifier)
                let right = try Right(
                    requirement: .passphrase(try PassphraseRequirement(label: identifier, passphrase: passphrase)),
                    authenticator: authenticator)
                let secret = randomSecret ? SecureRandom.bytes(32) : nil
                let persisted = try await rights.persist(right, identifier: identifier, secret: secret)
                CLIOutput.success([
                    "identifier": .string(identifier), "public_key_pem": .string(persisted.publicKey.pemRepresentation),
                    "public_key_jwk": .string(persisted.publicKey.jwk),
                    "public_key_jwk_thumbprint": .string(persisted.publicKey.thumbprint),
                ])
            }
        }
    }
}

/// `ssokit rights list`.
struct RightsListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List persisted rights.")

    @OptionGroup var storeOptions: StoreOptions

    func run() async throws {
        try await CLIOutput.run {
            try await CacheContext.withRights(storeOptions) { rights in
                var listed: [JSONValue] = []
                for identifier in try await rights.identifiers() {
                    listed.append(.object(RightOutput.members(try await rights.summary(forIdentifier: identifier))))
                }
                CLIOutput.success(["rights": .array(listed)])
            }
        }
    }
}

/// `ssokit rights authorize ID [--challenge B64URL]`: checks the passphrase, and answers a server challenge. The
/// signature covers `ssokit-right-challenge-v1`, a NUL byte, then the challenge (``RightChallenge``), so that no
/// challenge makes the key sign a `private_key_jwt` assertion.
struct RightsAuthorizeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "authorize", abstract: "Authorize a right; optionally sign a server challenge with its key.")

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The right's identifier.")
    var identifier: String
    @Option(
        help: """
            A base64url challenge (1-4096 bytes) to answer: an ECDSA P-256 SHA-256 signature, raw r||s in base64url, \
            of the text 'ssokit-right-challenge-v1', one NUL byte, then the challenge. Base64url may begin with '-': \
            write --challenge=VALUE.
            """)
    var challenge: String?

    func run() async throws {
        try await CLIOutput.run {
            try await CacheContext.withRights(storeOptions) { rights in
                let persisted = try await rights.right(
                    forIdentifier: identifier, authenticator: TerminalAuthenticator())
                try await persisted.authorize(localizedReason: "Authorize \(identifier)")
                var members: [String: JSONValue] = [
                    "identifier": .string(identifier), "authorized": .bool(true),
                    "public_key_pem": .string(persisted.publicKey.pemRepresentation),
                ]
                if let challenge {
                    guard let bytes = Base64URL.decode(challenge), !bytes.isEmpty, bytes.count <= 4096 else {
                        throw ValidationError("--challenge must be 1-4096 bytes of base64url")
                    }
                    members["signature"] = .string(
                        Base64URL.encode(try persisted.privateKey.challengeSignature(for: bytes)))
                }
                persisted.deauthorize()
                CLIOutput.success(members)
            }
        }
    }
}

/// `ssokit rights delete ID`.
struct RightsDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete a right with its key and secret.")

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The right's identifier.")
    var identifier: String

    func run() async throws {
        try await CLIOutput.run {
            try await CacheContext.withRights(storeOptions) { rights in
                try await rights.removeRight(forIdentifier: identifier)
                CLIOutput.success(["deleted": .string(identifier)])
            }
        }
    }
}
