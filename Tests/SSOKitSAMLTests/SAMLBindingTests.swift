import Foundation
import SSOKitCore
import SSOKitSAML
import Testing

@Suite("AuthnRequest and the bindings")
struct SAMLBindingTests {
    static let sp = "https://sp.example.com/saml"
    static let acs = "https://sp.example.com/saml/acs"
    static let sso = "https://idp.example.com/saml/sso"

    func builder() throws -> AuthnRequestBuilder {
        try AuthnRequestBuilder(
            serviceProviderEntityID: Self.sp, assertionConsumerServiceURL: Self.acs,
            nameIDPolicy: .init(format: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress"),
            requestedAuthnContext: .init(
                classReferences: ["urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport"],
                comparison: .minimum),
            clock: FixedClock(unixSeconds: 1_767_225_600))
    }

    @Test("the builder fills every field; IDs are NCNames and unique")
    func builderFields() throws {
        let request = try builder().build(destination: Self.sso, forceAuthn: true, isPassive: true)
        let xml = request.xml
        for fragment in [
            "ID=\"\(request.id)\"", "Version=\"2.0\"", "IssueInstant=\"2026-01-01T00:00:00Z\"",
            "Destination=\"\(Self.sso)\"", "AssertionConsumerServiceURL=\"\(Self.acs)\"",
            "ProtocolBinding=\"urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST\"", "ForceAuthn=\"true\"",
            "IsPassive=\"true\"", "<saml:Issuer>\(Self.sp)</saml:Issuer>",
            "Format=\"urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress\"", "Comparison=\"minimum\"",
            "PasswordProtectedTransport</saml:AuthnContextClassRef>",
        ] {
            #expect(xml.contains(fragment), "\(fragment)")
        }
        #expect(request.id.hasPrefix("_") && request.id.count == 41)
        let ids = Set((0..<1000).map { _ in AuthnRequestBuilder.newID() })
        #expect(ids.count == 1000)
        #expect(throws: SAMLError(.invalidURL, "")) { try builder().build(destination: "javascript:alert(1)") }
    }

    @Test("redirect binding: signed URL round-trips and verifies; tampering and the wrong key are refused")
    func redirectRoundTrip() throws {
        let key = try SAMLTestSupport.privateKey("sp")
        let request = try builder().build(destination: Self.sso)
        let url = try RedirectBinding.url(
            destination: Self.sso, xml: request.xml, relayState: "state-1", signingKey: key)
        #expect(url.hasPrefix(Self.sso + "?SAMLRequest="))
        let query = try #require(url.split(separator: "?", maxSplits: 1).last.map(String.init))
        let message = try RedirectBinding.decode(query: query, signer: SAMLTestSupport.certificate("sp"))
        #expect(message.id == request.id)
        #expect(message.issuer == Self.sp)
        #expect(message.relayState == "state-1")
        #expect(message.signatureAlgorithm == .rsaSHA256)
        #expect(message.messageName == "AuthnRequest")

        let tampered = query.replacingOccurrences(of: "RelayState=state-1", with: "RelayState=state-2")
        #expect(throws: SAMLError(.invalidSignature, "")) {
            try RedirectBinding.decode(query: tampered, signer: SAMLTestSupport.certificate("sp"))
        }
        #expect(throws: SAMLError(.invalidSignature, "")) {
            try RedirectBinding.decode(query: query, signer: SAMLTestSupport.certificate("attacker"))
        }
        let unsigned = try RedirectBinding.url(destination: Self.sso, xml: request.xml)
        let unsignedQuery = try #require(unsigned.split(separator: "?", maxSplits: 1).last.map(String.init))
        #expect(throws: SAMLError(.signatureMissing, "")) {
            try RedirectBinding.decode(query: unsignedQuery, signer: SAMLTestSupport.certificate("sp"))
        }
        #expect(try RedirectBinding.decode(query: unsignedQuery, signer: nil).id == request.id)
    }

    @Test("redirect binding with an EC key signs ECDSA-SHA256 that verifies")
    func redirectECDSA() throws {
        let key = try SAMLTestSupport.privateKey("idp-ec")
        let request = try builder().build(destination: Self.sso)
        let url = try RedirectBinding.url(destination: Self.sso, xml: request.xml, signingKey: key)
        let query = try #require(url.split(separator: "?", maxSplits: 1).last.map(String.init))
        let message = try RedirectBinding.decode(query: query, signer: SAMLTestSupport.certificate("idp-ec"))
        #expect(message.signatureAlgorithm == .ecdsaSHA256)
    }

    @Test("RelayState over 80 bytes is refused on both sides")
    func relayStateLimit() throws {
        let request = try builder().build(destination: Self.sso)
        #expect(throws: SAMLError(.relayStateTooLong, "")) {
            try RedirectBinding.url(
                destination: Self.sso, xml: request.xml, relayState: String(repeating: "r", count: 81))
        }
        _ = try RedirectBinding.url(
            destination: Self.sso, xml: request.xml, relayState: String(repeating: "r", count: 80))
    }

    @Test("a DEFLATE bomb is stopped at the inflate cap")
    func deflateBomb() throws {
        let padding = String(repeating: " ", count: 4 << 20)
        let request = try builder().build(destination: Self.sso)
        let bomb = request.xml.replacingOccurrences(of: "<saml:Issuer>", with: "\(padding)<saml:Issuer>")
        let url = try RedirectBinding.url(destination: Self.sso, xml: bomb)
        #expect(url.utf8.count < 64 * 1024, "the bomb is small on the wire")
        let query = try #require(url.split(separator: "?", maxSplits: 1).last.map(String.init))
        #expect(throws: SAMLError(.tooLarge, "")) { try RedirectBinding.decode(query: query, signer: nil) }
    }

    @Test("a message that inflates to half a million stray '<' under the cap is refused as malformed_xml")
    func malformedTagFlood() throws {
        // Found by the redirect-query fuzz target: libxml2 2.9 went on raising one error per stray '<' after the
        // first, about half a second of parsing for 1.5 KB on the wire. The parse now stops at the first fatal error.
        let flood = String(repeating: "<", count: 500_000) + String(repeating: "/", count: 30_000)
        let request = try builder().build(destination: Self.sso)
        let xml = request.xml.replacingOccurrences(of: "</samlp:AuthnRequest>", with: flood + "</samlp:AuthnRequest>")
        let url = try RedirectBinding.url(destination: Self.sso, xml: xml)
        #expect(url.utf8.count < 8 * 1024, "the flood is small on the wire")
        let query = try #require(url.split(separator: "?", maxSplits: 1).last.map(String.init))
        #expect(throws: SAMLError(.malformedXML, "")) { try RedirectBinding.decode(query: query, signer: nil) }
    }

    @Test("POST binding: the enveloped signature verifies with xmlsec1 and the SP certificate")
    func postBindingSignature() throws {
        let key = try SAMLTestSupport.privateKey("sp")
        let request = try builder().build(destination: Self.sso)
        let form = try PostBinding.form(request, relayState: "rs", signingKey: key)
        #expect(form.html.contains("name=\"SAMLRequest\""))
        #expect(form.action == Self.sso)
        let xml = try #require(Data(base64Encoded: form.message))
        let text = String(decoding: xml, as: UTF8.self)
        #expect(text.contains("<ds:Signature") || text.contains("<Signature"))
        #expect(text.contains("xml-exc-c14n#"))
        #expect(text.contains("X509Certificate"))

        let xmlsec = try #require(
            ["/usr/bin/xmlsec1", "/usr/local/bin/xmlsec1"].first { FileManager.default.isExecutableFile(atPath: $0) },
            "xmlsec1 (Debian's xmlsec1 package) verifies the signature independently")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ssokit-post-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func verify(_ document: Data) throws -> Int32 {
            let file = directory.appendingPathComponent("request.xml")
            try document.write(to: file)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: xmlsec)
            process.arguments = [
                "--verify", "--pubkey-cert-pem", try SAMLTestSupport.folder.appendingPathComponent("keys/sp.crt").path,
                "--id-attr:ID", "urn:oasis:names:tc:SAML:2.0:protocol:AuthnRequest", file.path,
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }
        #expect(try verify(xml) == 0)
        let forged = Data(text.replacingOccurrences(of: Self.acs, with: "https://evil.example/acs").utf8)
        #expect(try verify(forged) != 0)
    }

    @Test("SP metadata names the entity, the ACS and both certificates")
    func serviceProviderMetadata() throws {
        let certificate = try SAMLTestSupport.certificate("sp")
        let metadata = try ServiceProviderMetadata(
            entityID: Self.sp, assertionConsumerServiceURL: Self.acs, signingCertificate: certificate,
            encryptionCertificate: certificate)
        let xml = metadata.xml
        #expect(xml.contains("entityID=\"\(Self.sp)\""))
        #expect(xml.contains("AuthnRequestsSigned=\"true\""))
        #expect(xml.contains("Location=\"\(Self.acs)\""))
        #expect(xml.contains("use=\"signing\""))
        #expect(xml.contains("use=\"encryption\""))
        #expect(xml.components(separatedBy: certificate.base64).count == 3)
        #expect(throws: SAMLError(.invalidURL, "")) {
            try ServiceProviderMetadata(entityID: Self.sp, assertionConsumerServiceURL: "javascript:x")
        }
    }
}

@Suite("Signing refusals")
struct SAMLSigningRefusalTests {
    @Test("a key that does not fit the algorithm is invalid_key; SHA-1 signing is unsupported_algorithm")
    func refusals() throws {
        let request = try AuthnRequestBuilder(
            serviceProviderEntityID: SAMLBindingTests.sp, assertionConsumerServiceURL: SAMLBindingTests.acs
        ).build(destination: SAMLBindingTests.sso)
        let ecKey = try SAMLTestSupport.privateKey("idp-ec")
        #expect(throws: SAMLError(.invalidKey, "")) {
            try RedirectBinding.url(
                destination: SAMLBindingTests.sso, xml: request.xml, signingKey: ecKey, algorithm: .rsaSHA256)
        }
        #expect(throws: SAMLError(.invalidKey, "")) {
            try PostBinding.encode(request, signingKey: ecKey, algorithm: .rsaSHA512)
        }
        #expect(throws: SAMLError(.unsupportedAlgorithm, "")) {
            try RedirectBinding.url(
                destination: SAMLBindingTests.sso, xml: request.xml,
                signingKey: SAMLTestSupport.privateKey("sp"), algorithm: .rsaSHA1)
        }
    }

    @Test("a full in-memory replay guard refuses new IDs instead of forgetting live ones")
    func replayGuardCapacity() async throws {
        let clock = FixedClock(unixSeconds: 1_767_225_600)
        let replayGuard = InMemoryAssertionReplayGuard(capacity: 2, clock: clock)
        let expiry = clock.now.addingTimeInterval(60)
        #expect(try await replayGuard.recordFirstUse(assertionID: "_1", issuer: "i", expiry: expiry))
        #expect(try await replayGuard.recordFirstUse(assertionID: "_2", issuer: "i", expiry: expiry))
        #expect(try await !replayGuard.recordFirstUse(assertionID: "_3", issuer: "i", expiry: expiry))
        #expect(try await !replayGuard.recordFirstUse(assertionID: "_1", issuer: "i", expiry: expiry))
    }
}
