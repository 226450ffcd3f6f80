import Foundation
import SSOKitSAML
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `ssokit saml` against an IdP we did not write: pysaml2's `saml2.server.Server` (`peer/saml_idp.py`, on
/// 127.0.0.1). pysaml2 checks the signature of our AuthnRequest (HTTP-Redirect query signature, or HTTP-POST
/// enveloped XML signature) with the signing certificate from the SP metadata that `ssokit saml metadata` wrote, and
/// `ssokit saml verify` checks the Response pysaml2 signed. See peer/README.md.
@Suite(.serialized)
struct SAMLPeerInteropTests {
    static let spEntityID = "http://127.0.0.1/sp"
    static let acsURL = "http://127.0.0.1:9/acs"
    static let user = "alice@example.com"
    static let emailFormat = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress"
    /// What the peer sends: pysaml2 names the attributes by OID (NameFormat uri).
    static let attributes: [String: [String]] = [
        "urn:oid:0.9.2342.19200300.100.1.3": [user],  // mail
        "urn:oid:2.5.4.42": ["Alice"],  // givenName
        "urn:oid:1.3.6.1.4.1.5923.1.1.1.1": ["member", "staff"],  // eduPersonAffiliation
    ]

    static func key(_ name: String) -> String {
        MockProvider.packageRoot.appendingPathComponent("fixtures/saml/keys/\(name)").path
    }

    private func ssokit(_ arguments: [String]) async throws -> ProcessResult {
        try await ProcessRunner.run(MockProvider.ssokit, arguments, timeout: 60)
    }

    /// `ssokit saml authn-request --binding redirect --json`, signed with `keyName`.key/.crt.
    private func redirectRequest(_ peer: SAMLPeer, keyName: String = "sp") async throws -> (url: String, id: String) {
        let result = try await ssokit([
            "saml", "authn-request", "--idp-metadata", peer.idpMetadata.path, "--sp-entity-id", Self.spEntityID,
            "--acs-url", Self.acsURL, "--binding", "redirect", "--relay-state", "state 123/ü",
            "--sign-key", Self.key("\(keyName).key"), "--sign-cert", Self.key("\(keyName).crt"), "--json",
        ])
        try #require(result.status == 0, "authn-request failed: \(result.stdout) \(result.stderr)")
        let json = try #require(result.json, "authn-request printed no JSON: \(result.stdout)")
        #expect(json["relay_state"] as? String == "state 123/ü")
        return (try #require(json["url"] as? String), try #require(json["request_id"] as? String))
    }

    /// `ssokit saml authn-request --binding post --json`, signed with sp.key/.crt or not, and its form read back.
    private func postRequest(_ peer: SAMLPeer, signed: Bool) async throws -> (form: AutoPostFormContent, id: String) {
        let signing = signed ? ["--sign-key", Self.key("sp.key"), "--sign-cert", Self.key("sp.crt")] : []
        let result = try await ssokit(
            [
                "saml", "authn-request", "--idp-metadata", peer.idpMetadata.path, "--sp-entity-id", Self.spEntityID,
                "--acs-url", Self.acsURL, "--binding", "post", "--relay-state", "state 123/ü", "--json",
            ] + signing)
        try #require(result.status == 0, "authn-request failed: \(result.stdout) \(result.stderr)")
        let json = try #require(result.json, "authn-request printed no JSON: \(result.stdout)")
        let form = try AutoPostFormParser().parse(try #require(json["form"] as? String))
        return (form, try #require(json["request_id"] as? String))
    }

    @Test func pysaml2AcceptsOurSignedRequestAndWeVerifyItsResponse() async throws {
        let peer = try await SAMLPeer()
        defer { peer.stop() }

        // The request goes to the SSO endpoint the IdP metadata names.
        let request = try await redirectRequest(peer)
        #expect(request.url.hasPrefix("\(peer.baseURL)/idp/sso/redirect?SAMLRequest="))
        #expect(request.url.contains("&SigAlg=") && request.url.contains("&Signature="))

        // pysaml2 verifies the redirect signature and answers with its HTTP-POST auto-post page.
        let page = try await LoopbackHTTP.get(request.url)
        try #require(page.status == 200, "the IdP refused our request: \(page.status) \(page.text) \(peer.log())")
        #expect(page.contentType?.hasPrefix("text/html") == true)
        let form = try AutoPostFormParser().parse(page.text, pageURL: URL(string: request.url))
        #expect(form.kind == .response)
        #expect(form.action == Self.acsURL)
        #expect(form.relayState == "state 123/ü")
        let responseFile = peer.directory.appendingPathComponent("response.b64")
        try Data(form.message.utf8).write(to: responseFile)

        // ssokit verifies pysaml2's Response with the IdP metadata...
        let common = ["--sp-entity-id", Self.spEntityID, "--acs-url", Self.acsURL]
        let verify = try await ssokit(
            ["saml", "verify", responseFile.path, "--idp-metadata", peer.idpMetadata.path, "--request-id", request.id]
                + common)
        #expect(verify.status == 0, "verify failed: \(verify.stdout) \(verify.stderr)")
        let json = try #require(verify.json, "verify printed no JSON: \(verify.stdout) \(verify.stderr)")
        #expect(json["issuer"] as? String == peer.entityID)
        #expect(json["name_id"] as? String == Self.user)
        #expect(json["name_id_format"] as? String == Self.emailFormat)
        #expect(json["attributes"] as? [String: [String]] == Self.attributes)
        #expect((json["session_index"] as? String)?.isEmpty == false)
        #expect((json["assertion_id"] as? String)?.isEmpty == false)
        let notOnOrAfter = try #require(json["not_on_or_after"] as? String)
        let expiry = try #require(ISO8601DateFormatter().date(from: notOnOrAfter), "not_on_or_after: \(notOnOrAfter)")
        #expect(expiry > Date() && expiry < Date().addingTimeInterval(600))

        // ...and with the pinned certificate and entity ID instead.
        let pinned = try await ssokit(
            [
                "saml", "verify", responseFile.path, "--idp-cert", Self.key("idp.crt"), "--idp-entity-id",
                peer.entityID, "--request-id", request.id,
            ] + common)
        #expect(pinned.status == 0, "verify with --idp-cert failed: \(pinned.stdout) \(pinned.stderr)")
        #expect(pinned.json?["assertion_id"] as? String == json["assertion_id"] as? String)

        // The same Response checked against another request's ID is refused.
        let other = try await redirectRequest(peer)
        #expect(other.id != request.id)
        let mismatch = try await ssokit(
            ["saml", "verify", responseFile.path, "--idp-metadata", peer.idpMetadata.path, "--request-id", other.id]
                + common)
        #expect(mismatch.status == 1)
        #expect(mismatch.json?["error"] as? String == "in_response_to_mismatch", "\(mismatch.stdout)")

        // A certificate that did not sign it is refused: the signature is really checked.
        let wrongCert = try await ssokit(
            ["saml", "verify", responseFile.path, "--idp-cert", Self.key("attacker.crt"), "--request-id", request.id]
                + common)
        #expect(wrongCert.status == 1)
        #expect(wrongCert.json?["error"] as? String == "invalid_signature", "\(wrongCert.stdout)")
    }

    @Test func pysaml2AcceptsOurSignedPostRequest() async throws {
        let peer = try await SAMLPeer()
        defer { peer.stop() }

        let signed = try await postRequest(peer, signed: true)
        #expect(signed.form.action == "\(peer.baseURL)/idp/sso/post")
        #expect(signed.form.kind == .request)
        #expect(signed.form.relayState == "state 123/ü")
        let xml = try #require(Data(base64Encoded: signed.form.message).map { String(decoding: $0, as: UTF8.self) })
        #expect(xml.contains("Signature") && xml.contains("AssertionConsumerServiceURL=\"\(Self.acsURL)\""))

        // pysaml2 checks the enveloped signature (xmlsec1, SP metadata certificate) and answers with a Response.
        let page = try await LoopbackHTTP.post(signed.form.action, form: signed.form.fields)
        try #require(page.status == 200, "the IdP refused our POST request: \(page.status) \(page.text) \(peer.log())")
        let form = try AutoPostFormParser().parse(page.text, pageURL: URL(string: signed.form.action))
        #expect(form.relayState == "state 123/ü")
        let responseFile = peer.directory.appendingPathComponent("post-response.b64")
        try Data(form.message.utf8).write(to: responseFile)
        let verify = try await ssokit(
            [
                "saml", "verify", responseFile.path, "--idp-metadata", peer.idpMetadata.path, "--sp-entity-id",
                Self.spEntityID, "--acs-url", Self.acsURL, "--request-id", signed.id,
            ])
        #expect(verify.status == 0, "verify failed: \(verify.stdout) \(verify.stderr)")
        #expect(verify.json?["name_id"] as? String == Self.user)
        #expect(verify.json?["attributes"] as? [String: [String]] == Self.attributes)

        // Unsigned: refused. Signed, then its ACS URL changed: refused for the signature (403), not for the URL (400).
        let unsigned = try await postRequest(peer, signed: false)
        let unsignedXML = try #require(Data(base64Encoded: unsigned.form.message))
        #expect(!String(decoding: unsignedXML, as: UTF8.self).contains("SignatureValue"))
        let unsignedAnswer = try await LoopbackHTTP.post(unsigned.form.action, form: unsigned.form.fields)
        #expect(unsignedAnswer.status == 403, "unsigned POST request: \(unsignedAnswer.status) \(unsignedAnswer.text)")
        let forged = xml.replacingOccurrences(
            of: "AssertionConsumerServiceURL=\"\(Self.acsURL)\"",
            with: "AssertionConsumerServiceURL=\"\(Self.acsURL)2\"")
        #expect(forged != xml)
        var forgedFields = signed.form.fields
        forgedFields[0].1 = Data(forged.utf8).base64EncodedString()
        let forgedAnswer = try await LoopbackHTTP.post(signed.form.action, form: forgedFields)
        #expect(
            forgedAnswer.status == 403,
            "POST request changed after signing: \(forgedAnswer.status) \(forgedAnswer.text)")
    }

    @Test func pysaml2RefusesTamperedUnsignedAndForeignRequests() async throws {
        let peer = try await SAMLPeer()
        defer { peer.stop() }

        // Control: the untouched request is accepted, so each refusal below is down to its one change.
        let request = try await redirectRequest(peer)
        let accepted = try await LoopbackHTTP.get(request.url)
        #expect(accepted.status == 200, "control request refused: \(accepted.text) \(peer.log())")

        var components = try #require(URLComponents(string: request.url))
        let items = try #require(components.percentEncodedQueryItems)
        func variant(_ change: (inout [URLQueryItem]) -> Void) -> String {
            var changed = items
            change(&changed)
            components.percentEncodedQueryItems = changed
            return components.string ?? ""
        }
        let signatureIndex = try #require(items.firstIndex { $0.name == "Signature" })
        let signature = try #require(items[signatureIndex].value)
        let position = signature.index(signature.startIndex, offsetBy: 10)
        let flipped = signature[position] == "A" ? "B" : "A"
        let tamperedSignature = variant {
            $0[signatureIndex].value = signature.replacingCharacters(in: position...position, with: flipped)
        }
        let droppedSignature = variant { $0.removeAll { $0.name == "Signature" } }
        let unsigned = variant { $0.removeAll { $0.name == "Signature" || $0.name == "SigAlg" } }
        let changedRelayState = variant {
            $0 = $0.map { $0.name == "RelayState" ? URLQueryItem(name: "RelayState", value: "state-124") : $0 }
        }

        for (what, url) in [
            ("one Signature character changed", tamperedSignature), ("Signature dropped", droppedSignature),
            ("Signature and SigAlg dropped", unsigned), ("RelayState changed", changedRelayState),
        ] {
            let answer = try await LoopbackHTTP.get(url)
            #expect(answer.status == 403, "\(what): \(answer.status) \(answer.text)")
        }

        // Well signed, but by a key that is not the SP's signing key in the SP metadata.
        let foreign = try await redirectRequest(peer, keyName: "attacker")
        let answer = try await LoopbackHTTP.get(foreign.url)
        #expect(answer.status == 403, "request signed by attacker.key: \(answer.status) \(answer.text)")
    }
}

extension AutoPostFormContent {
    /// The form's fields, in order: the message, then the RelayState if any.
    fileprivate var fields: [(String, String)] {
        [(kind.rawValue, message)] + (relayState.map { [("RelayState", $0)] } ?? [])
    }
}
