import Crypto
import Foundation
import SSOKitConformance
import SSOKitCore
import SSOKitDevIdP
import SSOKitOIDC
import SSOKitSAML

/// Values that cost time to make (RSA keys, scrypt hashes), made once for every test.
enum DevIdPTestValues {
    static let password = "correct horse battery"
    static let keys = Result { () throws(DevIdPError) in try DevIdPSigningKeys.generate() }
    static let users = Result { () throws(DevIdPError) in
        [
            try DevIdPUser(
                username: "alice", password: password, subject: "user-alice",
                claims: [
                    "name": .string("Alice Example"), "email": .string("alice@example.com"),
                    "email_verified": .bool(true), "groups": .array([.string("staff"), .string("admins")]),
                ], passwordCost: .minimumForTests),
            try DevIdPUser(username: "bob", password: "bob-password", passwordCost: .minimumForTests),
        ]
    }

    /// The `private_key_jwt` client's key and its `kid`.
    static let clientKey = P256.Signing.PrivateKey()
    static let clientKeyID = "jwt-key-1"

    static let publicRedirect = "http://127.0.0.1/callback"
    static let signedSP = "https://sp.example.com/signed"
    static let signedACS = "http://127.0.0.1:7001/acs"
    static let signedSLO = "http://127.0.0.1:7001/slo"
    static let openSP = "https://sp.example.com/open"

    static func clients() -> [OIDCClientRegistration] {
        let redirects = [publicRedirect]
        let logouts = ["http://127.0.0.1/"]
        return [
            OIDCClientRegistration(
                clientID: "public-app", authentication: .none, redirectURIs: redirects,
                postLogoutRedirectURIs: logouts),
            OIDCClientRegistration(
                clientID: "basic-app", authentication: .clientSecretBasic("basic-secret"), redirectURIs: redirects,
                postLogoutRedirectURIs: logouts),
            OIDCClientRegistration(
                clientID: "post-app", authentication: .clientSecretPost("post-secret"), redirectURIs: redirects),
            OIDCClientRegistration(
                clientID: "jwt-app",
                authentication: .privateKeyJWT(
                    JSONWebKeySet(keys: [VerificationKey(keyID: clientKeyID, material: .p256(clientKey.publicKey))])),
                redirectURIs: redirects),
            OIDCClientRegistration(
                clientID: "fixture-client", authentication: .none,
                redirectURIs: ["http://127.0.0.1/cb", "https://rp.example.com/cb"],
                allowedScopes: ["openid", "profile", "email"]),
        ]
    }

    static func serviceProviders() throws -> [SAMLServiceProviderRegistration] {
        let spCertificate = try SAMLCertificate(pem: fixture("saml/keys/sp.crt"))
        return [
            SAMLServiceProviderRegistration(
                entityID: signedSP, assertionConsumerServiceURLs: [signedACS], singleLogoutServiceURL: signedSLO,
                signingCertificates: [spCertificate], encryptionCertificate: spCertificate),
            SAMLServiceProviderRegistration(
                entityID: openSP, assertionConsumerServiceURLs: ["http://127.0.0.1/acs"], signAssertion: false),
        ]
    }

    static func fixture(_ path: String) throws -> String {
        guard let root = FixtureLoader.fixturesDirectory() else { throw CocoaError(.fileNoSuchFile) }
        return try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    static func spKey(_ name: String = "sp") throws -> SAMLPrivateKey {
        try SAMLPrivateKey(pem: fixture("saml/keys/\(name).key"), certificatePEM: fixture("saml/keys/\(name).crt"))
    }
}
