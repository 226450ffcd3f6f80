import Foundation
import Testing

@testable import SSOKitSAML

/// Defence in depth beneath ``CipherReferenceTests``: even when the structural check is bypassed and a
/// CipherReference reaches xmlsec, no context opens a URI (XML_PARSE_NONET does not cover xmlsec's own reads).
@Suite("xmlsec contexts open no URI")
struct XMLSecContextURITests {
    private func factory(_ name: String) throws -> EncryptedResponseFactory {
        try EncryptedResponseFactory(assertionOf: "assertion-signed-rsa-sha256-valid", responseID: "_resp-\(name)")
    }

    @Test("beneath the structural check, the xmlsec contexts open no URI: loopback, file, /dev/zero all fail fast")
    func xmlsecContextsOpenNoURI() throws {
        let server = try LoopbackConnectionCounter()
        defer { server.stop() }
        let made = try factory("shim")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ssokit-cipher-\(UUID()).bin")
        try Data(made.ciphertext).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let key = try SAMLTestSupport.privateKey("sp")
        for uri in [
            "http://127.0.0.1:\(server.port)/ciphertext", file.absoluteString, file.path, "file:///dev/zero",
        ] {
            let tree = try XMLTree.parse(made.response(cipherReference: uri), limits: XMLLimits())
            let wrapper = try #require(tree.scanForAssertions().first)
            let data = try #require(wrapper.firstChild("EncryptedData", in: SAMLNamespace.xmlenc))
            let encryptedKey = try #require(
                data.firstChild("KeyInfo", in: SAMLNamespace.dsig)?.firstChild("EncryptedKey", in: SAMLNamespace.xmlenc)
            )
            // Straight to the cryptography, as if prepare(_:) had let the CipherReference through.
            let prepared = AssertionDecryptor.Prepared(
                encryptedAssertion: wrapper, encryptedData: data, encryptedKeys: [encryptedKey], key: key)
            let started = ContinuousClock.now
            #expect(throws: AssertionDecryptor.failure, "\(uri)") {
                _ = try AssertionDecryptor(key: key).decrypt(prepared, in: tree, limits: XMLLimits())
            }
            #expect(ContinuousClock.now - started < .seconds(2), "\(uri)")
        }
        #expect(server.connections == 0)
    }
}
