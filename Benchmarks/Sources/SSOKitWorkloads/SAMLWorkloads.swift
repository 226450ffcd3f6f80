import CXMLSecReference
import Crypto
import CryptoExtras
import Foundation
import SSOKitCore
import SSOKitSAML

/// SAML Response verification with every check on (`fixtures/saml/cases/benchmark-7kb-valid.json`, a ~7 KB
/// Response whose Assertion is signed RSA-SHA256), against plain C loops over xmlsec on the same document (parse
/// from memory, register the ID, `xmlSecDSigCtxVerify` with the pinned key in a fresh context), with the key from
/// the certificate and with the bare public key (the reference). Beside them: libxml2 parsing alone, a raw
/// RSA-2048 verification, and signed redirect-binding AuthnRequest generation against a raw RSA-2048 signature
/// with the same key.
///
/// SSOKit's side goes through the public ``SAMLResponseVerifier/verify(xml:solicitation:)`` with
/// ``AcceptingReplayGuard``: the same document is verified on every call, so a real guard would refuse the second
/// one, and a fresh in-memory guard per call would add its creation to what is measured.
enum SAMLWorkloads {
    static var all: [Workload] {
        [
            Workload("SAML", "verify") {
                let setup = try await SAMLSetup()
                return .async { _ = try await setup.verifier.verify(xml: setup.xml, solicitation: setup.solicitation) }
            },
            Workload("SAML", "verify-posted-base64", gated: false) {
                let setup = try await SAMLSetup()
                let posted = Data(setup.xml).base64EncodedString(options: .lineLength76Characters)
                return .async {
                    _ = try await setup.verifier.verify(postedResponse: posted, solicitation: setup.solicitation)
                }
            },
            Workload("SAML", "floor-c-loop-bare-key") { try await cLoop(bare: true) },
            Workload("SAML", "floor-c-loop-certificate-key") { try await cLoop(bare: false) },
            Workload("SAML", "libxml2-parse", gated: false) {
                let xml = try await SAMLSetup().xml
                return .sync {
                    let parsed = xml.withUnsafeBufferPointer { buffer in
                        buffer.withMemoryRebound(to: CChar.self) {
                            ssokit_reference_parse($0.baseAddress, Int32($0.count))
                        }
                    }
                    guard parsed == 1 else { throw WorkloadFailure("libxml2 did not parse the document") }
                }
            },
            Workload("SAML", "rsa2048-verify", gated: false) {
                let (key, message) = try serviceProviderKey()
                let signature = try key.signature(for: message, padding: .insecurePKCS1v1_5)
                return .sync {
                    guard key.publicKey.isValidSignature(signature, for: message, padding: .insecurePKCS1v1_5) else {
                        throw WorkloadFailure("invalid signature")
                    }
                }
            },
            Workload("SAML", "authnrequest-redirect-signed") {
                let key = try SAMLPrivateKey(pem: String(decoding: try fixtureBytes("saml/keys/sp.key"), as: UTF8.self))
                let builder = try AuthnRequestBuilder(
                    serviceProviderEntityID: "https://sp.example.com/saml",
                    assertionConsumerServiceURL: "https://sp.example.com/saml/acs")
                let destination = "https://idp.example.com/saml/sso"
                return .sync {
                    let request = try builder.build(destination: destination)
                    _ = try RedirectBinding.url(
                        destination: destination, xml: request.xml, relayState: "rs-123", signingKey: key)
                }
            },
            Workload("SAML", "floor-rsa2048-sign") {
                let (key, message) = try serviceProviderKey()
                return .sync { _ = try key.signature(for: message, padding: .insecurePKCS1v1_5) }
            },
        ]
    }

    /// The C loop over the benchmark document with the pinned key, loaded bare or from the certificate.
    static func cLoop(bare: Bool) async throws -> Workload.Operation {
        let setup = try await SAMLSetup()
        let key = try ReferenceKey(certificatePEM: setup.certificatePEM, bare: bare)
        let xml = setup.xml
        return .sync {
            let result = xml.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) {
                    ssokit_reference_verify(key.pointer, $0.baseAddress, Int32($0.count))
                }
            }
            guard result == 1 else { throw WorkloadFailure("the C loop did not verify the signature") }
        }
    }

    /// The SP's RSA-2048 key (the one AuthnRequests are signed with) and a 1 KB message: the document's start.
    static func serviceProviderKey() throws -> (_RSA.Signing.PrivateKey, Data) {
        let key = try _RSA.Signing.PrivateKey(
            pemRepresentation: String(decoding: try fixtureBytes("saml/keys/sp.key"), as: UTF8.self))
        return (key, Data(try fixtureBytes("saml/responses/benchmark-7kb-valid.xml").prefix(1024)))
    }
}

/// The benchmark document, its verifier and its certificate.
struct SAMLSetup: Sendable {
    let xml: [UInt8]
    let certificatePEM: String
    let verifier: SAMLResponseVerifier
    let solicitation: SAMLResponseVerifier.Solicitation

    init() async throws {
        let fixture = try fixtureObject("saml/cases/benchmark-7kb-valid.json")
        guard let response = fixture["response"] as? String,
            let certificate = (fixture["idp_certs"] as? [String])?.first,
            let spEntityID = fixture["sp_entity_id"] as? String, let acsURL = fixture["acs_url"] as? String,
            let idpEntityID = fixture["idp_entity_id"] as? String, let requestID = fixture["request_id"] as? String,
            let now = (fixture["now"] as? String).flatMap(SAMLDateTime.parse)
        else { throw WorkloadFailure("benchmark-7kb-valid.json lacks a member") }
        xml = try fixtureBytes("saml/\(response)")
        certificatePEM = String(decoding: try fixtureBytes("saml/\(certificate)"), as: UTF8.self)
        verifier = SAMLResponseVerifier(
            configuration: .init(
                serviceProviderEntityID: spEntityID, assertionConsumerServiceURL: acsURL,
                identityProviderEntityID: idpEntityID,
                identityProviderCertificates: [try SAMLCertificate(pem: certificatePEM)]),
            clock: FixedClock(now), replayGuard: AcceptingReplayGuard())
        solicitation = .request(id: requestID)
        _ = try await verifier.verify(xml: xml, solicitation: solicitation)
    }
}

/// A replay guard that accepts every assertion ID: the benchmark verifies one document over and over.
struct AcceptingReplayGuard: SAMLAssertionReplayGuard {
    func recordFirstUse(assertionID: String, issuer: String, expiry: Date) async throws -> Bool { true }
}

/// A key of the C reference, freed with the last operation that uses it.
final class ReferenceKey {
    let pointer: UnsafeMutableRawPointer

    init(certificatePEM: String, bare: Bool) throws {
        let bytes = Array(certificatePEM.utf8)
        let loaded = bytes.withUnsafeBufferPointer { ssokit_reference_load_key($0.baseAddress, $0.count, bare ? 1 : 0) }
        guard let loaded else { throw WorkloadFailure("xmlsec did not load the certificate") }
        pointer = loaded
    }

    deinit { ssokit_reference_free_key(pointer) }
}
