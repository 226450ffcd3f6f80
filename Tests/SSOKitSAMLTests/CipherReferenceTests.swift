import Foundation
import SSOKitCore
import SSOKitSAML
import Testing

/// An EncryptedAssertion may only carry its ciphertext inline: a CipherReference (a URL, a file, /dev/zero) in an
/// unsigned Response that anyone can post is refused with a typed error before anything is opened, and beneath that
/// check no xmlsec context would open a URI either.
@Suite("EncryptedAssertion: no URI is ever opened")
struct CipherReferenceTests {
    private static let solicitation = SAMLResponseVerifier.Solicitation.request(id: "_ssokit-req-0001")

    private func verifier() throws -> SAMLResponseVerifier {
        try SAMLTestSupport.verifier(forCase: "encrypted-aes256-gcm-valid").0
    }

    private func factory(_ name: String) throws -> EncryptedResponseFactory {
        try EncryptedResponseFactory(assertionOf: "assertion-signed-rsa-sha256-valid", responseID: "_resp-\(name)")
    }

    /// Verifies `xml`, expecting a refusal, and returns its code and how long it took.
    private func refusal(of xml: [UInt8]) throws -> (code: SAMLError.Code, seconds: Double) {
        let started = ContinuousClock.now
        let error = try #require(throws: SAMLError.self) {
            _ = try verifier().validate(xml: xml, solicitation: Self.solicitation)
        }
        let elapsed = ContinuousClock.now - started
        return (error.code, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
    }

    @Test("the same ciphertext inline decrypts and verifies: the references below point at real ciphertext")
    func inlineCiphertextIsAccepted() throws {
        let assertion = try verifier().validate(
            xml: try factory("inline").response(), solicitation: Self.solicitation)
        #expect(assertion.assertionID == "_assert-assertion-signed-rsa-sha256-valid")
    }

    @Test("a CipherReference to a loopback HTTP server: no connection, cipher_reference_forbidden at once")
    func httpReferenceIsNotFetched() throws {
        let server = try LoopbackConnectionCounter()
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/ciphertext"
        let result = try refusal(of: try factory("http").response(cipherReference: url))
        #expect(result.code == .cipherReferenceForbidden)
        #expect(result.seconds < 2)
        #expect(server.connections == 0)
    }

    @Test("a CipherReference to a local file holding the very ciphertext: not read, so not accepted")
    func fileReferenceIsNotRead() throws {
        let made = try factory("file")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ssokit-cipher-\(UUID()).bin")
        try Data(made.ciphertext).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        for uri in [file.absoluteString, file.path] {
            let result = try refusal(of: made.response(cipherReference: uri))
            #expect(result.code == .cipherReferenceForbidden, "\(uri)")
            #expect(result.seconds < 2)
        }
    }

    @Test("a CipherReference to /dev/zero (an endless read): cipher_reference_forbidden at once")
    func endlessFileIsNotRead() throws {
        let result = try refusal(of: try factory("dev-zero").response(cipherReference: "file:///dev/zero"))
        #expect(result.code == .cipherReferenceForbidden)
        #expect(result.seconds < 2)
    }
}
