import ArgumentParser
import Foundation
import SSOKitCore
import SSOKitExtension
import SSOKitOIDC
import SSOKitSAML
import SSOKitTokenCache

/// `ssokit saml verify RESPONSE`: verifies a posted SAML Response and prints the assertion.
struct SAMLVerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify", abstract: "Verify a SAML Response (base64 as posted, or raw XML).")

    @Argument(help: "A file holding the Response, or - for stdin.")
    var response: String

    @Option(help: "The IdP's metadata (entity ID and signing certificates).")
    var idpMetadata: String?

    @Option(help: "A PEM file with the IdP's signing certificate(s); repeat or concatenate for a rollover.")
    var idpCert: [String] = []

    @Option(help: "The IdP entity ID the Issuer must equal (with --idp-cert).")
    var idpEntityId: String?

    @Option(help: "This SP's entity ID (the audience).")
    var spEntityId: String

    @Option(help: "This SP's ACS URL (Destination and Recipient).")
    var acsUrl: String

    @Option(help: "The ID of the AuthnRequest this Response answers.")
    var requestId: String?

    @Flag(help: "Accept an IdP-initiated Response (no InResponseTo).")
    var allowUnsolicited = false

    @Option(help: "Fix the clock: ISO 8601 or Unix seconds.")
    var now: TimeArgument?

    @Option(help: "Tolerated clock difference in seconds (default 60).")
    var clockSkew: Int = 60

    @Option(help: "The SP's PEM private key, for encrypted assertions.")
    var spKey: String?

    @Option(help: "Which signatures are required: assertion_covered (default), response, assertion, both.")
    var signaturePolicy: String = SAMLSignaturePolicy.assertionCovered.rawValue

    @Flag(help: "Accept SHA-1 signatures and digests (refused by default).")
    var allowSha1 = false

    @Option(help: "Record each accepted assertion ID in this cache folder (cache.sqlite) and refuse a second use.")
    var cache: String?

    @Option(
        help:
            "Record each accepted assertion ID in this PostgreSQL database (postgres://user[:password]@host[:port]/db)."
    )
    var postgres: String?

    func validate() throws {
        guard (idpMetadata == nil) != idpCert.isEmpty else {
            throw ValidationError("give exactly one of --idp-metadata and --idp-cert")
        }
        guard idpMetadata == nil || idpEntityId == nil else {
            throw ValidationError("--idp-entity-id goes with --idp-cert; metadata names the IdP itself")
        }
        guard (0...86_400).contains(clockSkew) else { throw ValidationError("--clock-skew must be 0...86400") }
        guard SAMLSignaturePolicy(rawValue: signaturePolicy) != nil else {
            throw ValidationError("--signature-policy must be assertion_covered, response, assertion or both")
        }
        guard requestId == nil || !allowUnsolicited else {
            throw ValidationError("--request-id and --allow-unsolicited exclude each other")
        }
        if cache != nil && postgres != nil { throw ValidationError("--cache and --postgres exclude each other") }
    }

    func run() async throws {
        try await CLIOutput.run {
            let clock = TimeArgument.clock(now)
            let certificates: [SAMLCertificate]
            let entityID: String?
            if let idpMetadata {
                let metadata = try SAMLFileInput.metadata(idpMetadata, now: clock.now)
                certificates = metadata.signingCertificates
                entityID = metadata.entityID
            } else {
                certificates = try idpCert.flatMap { try SAMLFileInput.certificates($0) }
                entityID = idpEntityId
            }
            let decryptionKey = try spKey.map { try SAMLPrivateKey(pem: SAMLFileInput.text($0)) }
            let configuration = SAMLResponseVerifier.Configuration(
                serviceProviderEntityID: spEntityId, assertionConsumerServiceURL: acsUrl,
                identityProviderEntityID: entityID ?? "", identityProviderCertificates: certificates,
                signaturePolicy: SAMLSignaturePolicy(rawValue: signaturePolicy) ?? .assertionCovered,
                insecureAllowSHA1: allowSha1, insecureSkipIssuerCheck: entityID == nil,
                clockSkew: TimeInterval(clockSkew), decryptionKey: decryptionKey)
            let solicitation: SAMLResponseVerifier.Solicitation =
                requestId.map { .request(id: $0) } ?? (allowUnsolicited ? .unsolicited : .request(id: ""))
            if requestId == nil, !allowUnsolicited {
                throw SAMLError(.unsolicitedResponse, "no --request-id was given and --allow-unsolicited is not set")
            }
            let input = try SAMLFileInput.bytes(response)
            let assertion = try await ReplayStore.with(cache: cache, postgres: postgres) { store in
                let verifier = SAMLResponseVerifier(
                    configuration: configuration, clock: clock,
                    replayGuard: store.map { TokenCacheReplayGuard(store: $0, clock: clock) })
                if input.first(where: { !$0.isASCIIWhitespace }) == UInt8(ascii: "<") {
                    return try await verifier.verify(xml: input, solicitation: solicitation)
                }
                return try await verifier.verify(
                    postedResponse: String(decoding: input, as: UTF8.self), solicitation: solicitation)
            }
            CLIOutput.success(assertion.jsonObject)
        }
    }
}

extension UInt8 {
    fileprivate var isASCIIWhitespace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D }
}
