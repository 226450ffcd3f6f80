import Foundation
import SSOKitConformance
import SSOKitCore
import SSOKitExtension
import SSOKitOIDC
import SSOKitSAML
import Testing

@Suite("Reading profiles into typed configuration")
struct ProfileLoaderTests {
    @Test("an OIDC Redirect payload from a .mobileconfig: every key typed, unknown keys kept, other payloads skipped")
    func oidcPayload() throws {
        let profile = try ProfileFixtures.load("oidc-redirect.mobileconfig")
        #expect(profile.identifier == "com.example.profile.oidc")
        #expect(profile.displayName == "SSOKit test profile")
        #expect(profile.signature == .unsigned)
        #expect(profile.otherPayloadTypes == ["com.apple.wifi.managed"])
        let payload = try #require(profile.payloads.first)
        #expect(payload.identifier == "com.example.sso.oidc")
        #expect(payload.uuid == "0C2D9A5E-8E1B-4F3A-9A7D-000000000001")
        #expect(payload.extensionIdentifier == "com.example.sso.extension")
        #expect(payload.teamIdentifier == "ABCDE12345")
        #expect(payload.applicationIdentifier == "ABCDE12345.com.example.sso.extension")
        #expect(payload.type == .redirect)
        #expect(payload.urls.map(\.url) == ["https://idp.example.com/", "http://127.0.0.1:9400/oauth2/"])
        #expect(payload.urls.map(\.origin.description) == ["https://idp.example.com", "http://127.0.0.1:9400"])
        #expect(payload.hosts.isEmpty)
        #expect(payload.screenLockedBehavior == .doNotHandle)
        #expect(payload.deniedBundleIdentifiers == ["com.example.chat"])
        #expect(payload.extensionData["FutureOption"] == .bool(true))
        let unknown = try #require(payload.dictionary["UnknownPayloadKey"]?.dictionaryValue?["nested"]?.arrayValue)
        #expect(unknown.first == .integer(1))
        #expect(unknown.dropFirst().first == .real(2.5))
        #expect(unknown.dropFirst(2).first == .date(Date(timeIntervalSince1970: 1_767_225_600)))
        #expect(unknown.last == .data([0, 1]))

        guard case .oidc(let oidc) = payload.configuration.identityProvider else {
            Issue.record("not oidc")
            return
        }
        #expect(oidc.issuer == "https://idp.example.com")
        #expect(oidc.clientID == "sso-extension")
        #expect(oidc.clientSecret?.value == "file-secret-value")
        #expect(oidc.clientAuthenticationMethod == .clientSecretBasic)
        #expect(oidc.scopes == ["openid", "email", "profile"])
        #expect(oidc.redirectURI == "com.example.sso:/callback")
        #expect(oidc.clientAuthentication()?.name == "client_secret_basic")
        #expect(payload.configuration.tokenRight == "com.example.sso.tokens")
        let apps = payload.configuration.applications
        #expect(apps.allowed == ["com.example.mail", "com.example.chat"])
        #expect(apps.allowedPrefixes == ["com.example.tools.", "com.example.beta."])
        #expect(apps.blocked == ["com.example.tools.legacy", "com.example.chat"])
    }

    @Test(
        "a SAML payload: metadata parsed, pinned certificate, SP key and certificate, and the verifier's configuration")
    func samlPayload() throws {
        let profile = try ProfileFixtures.load("saml-redirect.json")
        let payload = try #require(profile.payloads.first)
        guard case .saml(let saml) = payload.configuration.identityProvider else {
            Issue.record("not saml")
            return
        }
        #expect(saml.metadata?.entityID == "https://idp.example.com/saml")
        #expect(saml.identityProviderEntityID == "https://idp.example.com/saml")
        let pinned = try SAMLCertificate(pem: ProfileFixtures.text("../saml/keys/idp.crt"))
        #expect(saml.pinnedCertificates == [pinned])
        #expect(saml.responseSigningCertificates == [pinned], "the pinned certificate wins over the metadata's two")
        #expect(saml.serviceProviderKey?.certificate != nil)
        #expect(saml.verifyResponse)
        let configuration = saml.verifierConfiguration
        #expect(configuration.serviceProviderEntityID == "https://sp.example.com/saml")
        #expect(configuration.assertionConsumerServiceURL == "https://sp.example.com/saml/acs")
        #expect(configuration.identityProviderCertificates == [pinned])
        #expect(configuration.decryptionKey != nil)
        let request = try saml.authnRequestBuilder().build(destination: "https://idp.example.com/saml/sso/redirect")
        #expect(request.issuer == "https://sp.example.com/saml")
    }

    @Test("a SAML payload with only metadata verifies with the metadata's signing certificates")
    func samlMetadataCertificates() throws {
        let data =
            #"{"protocol": "saml", "sp_entity_id": "sp", "acs_url": "https://sp.example.com/acs", "idp_metadata_file": "m.xml"}"#
        let metadata = try ProfileFixtures.bytes("../../saml/metadata/metadata-unsigned-valid.xml")
        let loader = ProfileLoader(
            fileReader: MemoryFiles(files: ["/etc/ssokit/m.xml": metadata]),
            clock: FixedClock(unixSeconds: 1_767_225_600))
        let profile = try loader.load(
            ProfileFixtures.json(
                ProfileFixtures.payload("p", routes: #""URLs": ["https://idp.example.com/"]"#, data: data)),
            directory: "/etc/ssokit")
        guard case .saml(let saml) = profile.payloads.first?.configuration.identityProvider else {
            Issue.record("not saml")
            return
        }
        #expect(saml.pinnedCertificates.isEmpty)
        #expect(saml.responseSigningCertificates.count == 2)
    }

    @Test("relative paths are resolved against the profile's folder, absolute ones kept, through the host's reader")
    func pathsAreResolvedAsValues() throws {
        let data = { (path: String) in
            #"{"protocol": "oidc", "issuer": "https://idp.example.com", "client_id": "c", "client_secret_file": "\#(path)"}"#
        }
        let files = MemoryFiles(files: [
            "/profiles/secret.txt": Array("relative\n".utf8), "/abs/s": Array("absolute".utf8),
        ])
        let loader = ProfileLoader(fileReader: files)
        for (path, expected) in [("secret.txt", "relative"), ("/abs/s", "absolute")] {
            let profile = try loader.load(
                ProfileFixtures.json(
                    ProfileFixtures.payload("p", routes: #""URLs": ["https://a.example.com/"]"#, data: data(path))),
                directory: "/profiles/")
            guard case .oidc(let oidc) = profile.payloads.first?.configuration.identityProvider else {
                Issue.record("not oidc")
                return
            }
            #expect(oidc.clientSecret?.value == expected)
        }
    }

    @Test("without a file reader, a payload that names a file is a problem naming the payload and the key")
    func noFileReader() throws {
        let data =
            #"{"protocol": "oidc", "issuer": "https://idp.example.com", "client_id": "c", "client_secret_file": "s"}"#
        let error = #expect(throws: ProfileError.self) {
            try ProfileLoader().load(
                ProfileFixtures.json(
                    ProfileFixtures.payload("p", routes: #""URLs": ["https://a.example.com/"]"#, data: data)))
        }
        #expect(error?.code == .invalidProfile)
        #expect(error?.problems.map(\.key) == ["ExtensionData.client_secret_file"])
        #expect(error?.problems.first?.code == .unreadableFile)
        #expect(error?.problems.first?.payload == "p")
    }

    @Test("a secret never shows in descriptions, dumps or problem messages")
    func secretsAreRedacted() throws {
        let profile = try ProfileFixtures.load("credential.json")
        guard case .oidc(let oidc) = profile.payloads.first?.configuration.identityProvider else {
            Issue.record("not oidc")
            return
        }
        #expect(oidc.clientSecret?.value == "inline-secret-value")
        #expect(oidc.clientAuthenticationMethod == .clientSecretPost)
        var dumped = ""
        dump(oidc, to: &dumped)
        for text in [String(describing: oidc), String(reflecting: oidc), dumped] {
            #expect(!text.contains("inline-secret-value"))
        }
        // A problem about the secret's key never quotes it.
        let data =
            #"{"protocol": "oidc", "issuer": "https://idp.example.com", "client_id": "c", "client_auth": "none", "client_secret": "top-secret-1"}"#
        let error = #expect(throws: ProfileError.self) {
            try ProfileLoader().load(
                ProfileFixtures.json(
                    ProfileFixtures.payload("p", routes: #""URLs": ["https://a.example.com/"]"#, data: data)))
        }
        #expect(error?.problems.isEmpty == false)
        #expect(error?.problems.allSatisfy { !$0.message.contains("top-secret-1") } == true)
    }

    @Test("private_key_jwt needs a signer from the host; the relying party is built from the configuration")
    func clientAuthentication() throws {
        let configuration = OIDCProviderConfiguration(
            issuer: "https://idp.example.com", clientID: "c", clientAuthenticationMethod: .privateKeyJWT)
        #expect(configuration.clientAuthentication() == nil)
        let transport = InMemoryHTTPTransport(routes: [:])
        #expect(configuration.relyingParty(transport: transport) == nil)
        let publicClient = OIDCProviderConfiguration(issuer: "https://idp.example.com", clientID: "c")
        let party = try #require(publicClient.relyingParty(transport: transport))
        #expect(party.issuer == "https://idp.example.com")
        #expect(party.clientID == "c")
    }

    @Test("JSON null members are absent; null inside an array is refused")
    func jsonNull() throws {
        let profile = try ProfileLoader().load(
            ProfileFixtures.json(
                ProfileFixtures.payload("p", routes: #""URLs": ["https://a.example.com/"], "Realm": null"#)))
        #expect(profile.payloads.first?.realm == nil)
        let error = #expect(throws: ProfileError.self) {
            try ProfileLoader().load(
                ProfileFixtures.json(ProfileFixtures.payload("p", routes: #""URLs": ["https://a.example.com/", null]"#))
            )
        }
        #expect(error?.code == .malformedProfile)
    }

    @Test("requireVerifiedSignature refuses unsigned and unverifiable profiles and accepts a verified one")
    func requireVerifiedSignature() throws {
        let strict = try ProfileFixtures.loader(trust: "keys/test-ca.crt", requireVerifiedSignature: true)
        #expect(throws: ProfileError(.unsignedProfile, "")) {
            try ProfileFixtures.load("combined.mobileconfig", loader: strict)
        }
        let verified = try ProfileFixtures.load("combined.signed.mobileconfig", loader: strict)
        #expect(verified.signature == .verified(signer: "CN=SSOKit Test Profile Signer,O=SSOKit Tests"))
        let noAnchors = try ProfileFixtures.loader(requireVerifiedSignature: true)
        #expect(throws: ProfileError(.unsignedProfile, "")) {
            try ProfileFixtures.load("combined.signed.mobileconfig", loader: noAnchors)
        }
    }

    @Test("trust anchors must hold a certificate")
    func trustAnchors() throws {
        #expect(throws: ProfileError(.invalidTrustAnchor, "")) { try ProfileTrustAnchors(pem: "no certificate here") }
        #expect(throws: ProfileError(.invalidTrustAnchor, "")) {
            try ProfileTrustAnchors(pem: "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n")
        }
        let pem = try ProfileFixtures.text("keys/test-ca.crt") + ProfileFixtures.text("keys/other-ca.crt")
        #expect(try ProfileTrustAnchors(pem: pem).count == 2)
    }

    @Test("an entity declaration is refused before the parser runs, and nothing is expanded")
    func entityDeclarations() throws {
        for name in ["entity-declaration.mobileconfig", "external-entity.mobileconfig"] {
            #expect(throws: ProfileError(.entityDeclarationsRefused, "")) { try ProfileFixtures.load(name) }
        }
        let comment = Array(
            #"<?xml version="1.0"?><!-- a comment --><!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd"><plist version="1.0"><dict><key>PayloadContent</key><array/></dict></plist>"#
                .utf8)
        let error = #expect(throws: ProfileError.self) { try ProfileLoader().load(comment) }
        #expect(error?.code == .invalidProfile, "Apple's DOCTYPE and comments are read; an empty profile is invalid")
        let element = Array(#"<?xml version="1.0"?><!ELEMENT plist ANY><plist version="1.0"><dict/></plist>"#.utf8)
        #expect(throws: ProfileError(.entityDeclarationsRefused, "")) { try ProfileLoader().load(element) }
    }

    @Test("the property-list reader knows the five predefined entities only (nothing is expanded)")
    func undeclaredEntities() throws {
        #expect(throws: ProfileError(.malformedProfile, "")) {
            try ProfileFixtures.load("undeclared-entity.mobileconfig")
        }
    }

    @Test("input caps: size, nesting, non-XML property lists")
    func caps() throws {
        let big = ProfileLoader(limits: ProfileLimits(maximumProfileBytes: 10))
        #expect(throws: ProfileError(.profileTooLarge, "")) { try big.load(Array(repeating: 0x20, count: 11)) }
        #expect(throws: ProfileError(.malformedProfile, "")) { try ProfileFixtures.load("too-deep.json") }
        #expect(throws: ProfileError(.unsupportedFormat, "")) { try ProfileFixtures.load("binary.mobileconfig") }
        #expect(throws: ProfileError(.malformedProfile, "")) { try ProfileLoader().load([]) }
        #expect(throws: ProfileError(.malformedProfile, "")) { try ProfileLoader().load(Array("( a, b )".utf8)) }
    }
}
