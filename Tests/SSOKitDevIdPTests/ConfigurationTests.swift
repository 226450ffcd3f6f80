import Crypto
import CryptoExtras
import Foundation
import SSOKitConformance
import SSOKitCore
import SSOKitDevIdP
import SSOKitOIDC
import SSOKitSAML
import Testing

/// What a provider refuses to start with, its data folder, and the users and registrations files.
@Suite struct ConfigurationTests {
    private func configuration(
        host: String = "127.0.0.1", allowRemote: Bool = false, clients: [OIDCClientRegistration] = [DevIdPDemo.client],
        serviceProviders: [SAMLServiceProviderRegistration] = [DevIdPDemo.serviceProvider], port: Int = 0
    ) throws -> DevIdPConfiguration {
        DevIdPConfiguration(
            keys: try DevIdPTestValues.keys.get(), users: try DevIdPTestValues.users.get(), clients: clients,
            serviceProviders: serviceProviders, host: host, port: port, allowRemote: allowRemote)
    }

    private func temporaryFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("devidp-tests-\(UUID().uuidString)")
    }

    @Test func remoteHostNeedsPermission() throws {
        #expect(throws: DevIdPError(.remoteHostNotAllowed, "")) {
            _ = try DevIdentityProvider(configuration: try configuration(host: "0.0.0.0"))
        }
        _ = try DevIdentityProvider(configuration: try configuration(host: "0.0.0.0", allowRemote: true))
        _ = try DevIdentityProvider(configuration: try configuration(host: "::1"))
    }

    @Test func invalidRegistrationsAreRefused() throws {
        let invalid: [DevIdPConfiguration] = [
            try configuration(clients: [DevIdPDemo.client, DevIdPDemo.client]),
            try configuration(clients: [
                OIDCClientRegistration(clientID: "x", authentication: .none, redirectURIs: [])
            ]),
            try configuration(clients: [
                OIDCClientRegistration(clientID: "x", authentication: .none, redirectURIs: ["http://a/cb#frag"])
            ]),
            try configuration(clients: [
                OIDCClientRegistration(
                    clientID: "x", authentication: .clientSecretBasic(""), redirectURIs: ["http://a/"])
            ]),
            try configuration(clients: [
                OIDCClientRegistration(
                    clientID: "x", authentication: .privateKeyJWT(JSONWebKeySet(keys: [])), redirectURIs: ["http://a/"])
            ]),
            try configuration(serviceProviders: [
                SAMLServiceProviderRegistration(entityID: "sp", assertionConsumerServiceURLs: ["ftp://a/acs"])
            ]),
            try configuration(serviceProviders: [
                SAMLServiceProviderRegistration(
                    entityID: "sp", assertionConsumerServiceURLs: ["http://a/acs"], requireSignedRequests: true)
            ]),
            try configuration(serviceProviders: [
                SAMLServiceProviderRegistration(
                    entityID: "sp", assertionConsumerServiceURLs: ["http://a/acs"],
                    singleLogoutServiceURL: "http://127.0.0.1/slo")
            ]),
            try configuration(port: 70_000),
        ]
        for configuration in invalid {
            #expect(throws: DevIdPError(.invalidConfiguration, "")) {
                _ = try DevIdentityProvider(configuration: configuration)
            }
        }
    }

    @Test func busyPortFailsToBind() async throws {
        let first = try DevIdentityProvider(configuration: try configuration())
        let url = try await first.start()
        let second = try DevIdentityProvider(configuration: try configuration(port: try #require(url.port)))
        await #expect(throws: DevIdPError(.bindFailed, "")) { _ = try await second.start() }
        await first.shutdown()
        #expect(first.baseURL == nil)
    }

    @Test func keysAreKeptPrivateAndReused() throws {
        let folder = temporaryFolder().appendingPathComponent("data")
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let first = try DevIdPSigningKeys.loadOrCreate(in: folder)
        #expect(try mode(folder) == 0o700)
        for name in [
            DevIdPSigningKeys.FileName.oidcKey, DevIdPSigningKeys.FileName.samlKey,
            DevIdPSigningKeys.FileName.samlCertificate,
        ] {
            #expect(try mode(folder.appendingPathComponent(name)) == 0o600, "\(name)")
        }
        let second = try DevIdPSigningKeys.loadOrCreate(in: folder)
        #expect(second.oidcKeyID == first.oidcKeyID)
        #expect(second.samlCertificate == first.samlCertificate)
        // A certificate that does not fit the key is made anew from the key.
        let certificate = folder.appendingPathComponent(DevIdPSigningKeys.FileName.samlCertificate)
        try DevIdPTestValues.fixture("saml/keys/sp.crt").write(to: certificate, atomically: true, encoding: .utf8)
        let third = try DevIdPSigningKeys.loadOrCreate(in: folder)
        #expect(third.samlCertificate != (try SAMLCertificate(pem: DevIdPTestValues.fixture("saml/keys/sp.crt"))))
        #expect(third.oidcKeyID == first.oidcKeyID)
        // A key file that is not a key stops the start.
        try "garbage".write(
            to: folder.appendingPathComponent(DevIdPSigningKeys.FileName.oidcKey), atomically: true, encoding: .utf8)
        #expect(throws: DevIdPError(.keyUnavailable, "")) { _ = try DevIdPSigningKeys.loadOrCreate(in: folder) }
    }

    private func mode(_ url: URL) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
    }

    @Test func usersFile() throws {
        let folder = temporaryFolder()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("users.json")
        try #"{"users": [{"username": "carol", "password": "pw", "subject": "c-1", "claims": {"name": "Carol"}}]}"#
            .write(to: file, atomically: true, encoding: .utf8)
        let users = try DevIdPUser.load(from: file)
        #expect(users.map(\.username) == ["carol"])
        #expect(users.first?.subject == "c-1")
        #expect(users.first?.claims["name"] == .string("Carol"))
        for text in [
            #"{"users": [{"username": "carol"}]}"#, #"{"users": []}"#, #"{"users": "carol"}"#, "not json",
            #"{"users": [{"username": "carol", "password": "pw", "claims": {"sub": "x"}}]}"#,
            #"{"users": [{"username": "", "password": "pw"}]}"#,
        ] {
            try text.write(to: file, atomically: true, encoding: .utf8)
            #expect(throws: DevIdPError(.invalidConfiguration, ""), "\(text)") { _ = try DevIdPUser.load(from: file) }
        }
    }

    @Test func registrationsFile() throws {
        let folder = temporaryFolder()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try DevIdPTestValues.fixture("saml/keys/sp.crt").write(
            to: folder.appendingPathComponent("sp.crt"), atomically: true, encoding: .utf8)
        try P256.Signing.PrivateKey().publicKey.pemRepresentation.write(
            to: folder.appendingPathComponent("client.pub"), atomically: true, encoding: .utf8)
        let file = folder.appendingPathComponent(DevIdPRegistrations.fileName)
        try """
        {"oidc_clients": [
          {"client_id": "a", "client_secret": "s", "redirect_uris": ["http://127.0.0.1/cb"]},
          {"client_id": "b", "token_endpoint_auth_method": "private_key_jwt", "public_key_file": "client.pub",
           "key_id": "k1", "redirect_uris": ["http://127.0.0.1/cb"], "scope": "openid email"},
          {"client_id": "c", "token_endpoint_auth_method": "none", "redirect_uris": ["http://127.0.0.1/cb"]}],
         "saml_service_providers": [
          {"entity_id": "https://sp.example.com", "acs_urls": ["http://127.0.0.1:9/acs"],
           "signing_certificate_files": ["sp.crt"], "encryption_certificate_file": "sp.crt", "sign_assertion": false}]}
        """.write(to: file, atomically: true, encoding: .utf8)
        let registrations = try DevIdPRegistrations.load(from: file)
        #expect(registrations.clients.map(\.authentication.name) == ["client_secret_basic", "private_key_jwt", "none"])
        #expect(registrations.clients[1].allowedScopes == ["openid", "email"])
        let provider = try #require(registrations.serviceProviders.first)
        #expect(provider.requireSignedRequests, "signed requests are required when a signing certificate is given")
        #expect(provider.encryptionCertificate != nil)
        #expect(!provider.signAssertion && provider.signResponse)
        _ = try DevIdentityProvider(
            configuration: try configuration(
                clients: registrations.clients, serviceProviders: registrations.serviceProviders))
        for text in [
            #"{"oidc_clients": [{"client_id": "a", "token_endpoint_auth_method": "magic"}]}"#,
            #"{"oidc_clients": [{"client_id": "a", "token_endpoint_auth_method": "private_key_jwt"}]}"#,
            #"{"oidc_clients": [{"client_id": "a", "token_endpoint_auth_method": "client_secret_post"}]}"#,
            #"{"saml_service_providers": [{"entity_id": "x", "signing_certificate_files": ["missing.crt"]}]}"#,
            #"{"saml_service_providers": [{"entity_id": "x", "sign_response": "yes"}]}"#,
        ] {
            try text.write(to: file, atomically: true, encoding: .utf8)
            #expect(throws: DevIdPError(.invalidConfiguration, ""), "\(text)") {
                _ = try DevIdPRegistrations.load(from: file)
            }
        }
    }
}
