import Crypto
import CryptoExtras
import Foundation
import SSOKitCore
import SSOKitOIDC
import SSOKitSAML

/// The clients and service providers of a registrations file (`clients.json` in the data folder):
///
/// ```json
/// {"oidc_clients": [{"client_id": "app", "token_endpoint_auth_method": "client_secret_basic",
///                    "client_secret": "…", "redirect_uris": ["http://127.0.0.1/callback"],
///                    "post_logout_redirect_uris": ["http://127.0.0.1/"], "scope": "openid profile email"}],
///  "saml_service_providers": [{"entity_id": "https://sp.example.com", "acs_urls": ["http://127.0.0.1:8080/acs"],
///                              "slo_url": "http://127.0.0.1:8080/slo", "signing_certificate_files": ["sp.crt"],
///                              "require_signed_requests": true, "encryption_certificate_file": "sp.crt",
///                              "sign_assertion": true, "sign_response": true}]}
/// ```
///
/// `private_key_jwt` clients give `jwks` (an inline JWK set), `jwks_file`, or `public_key_file` (PEM, RSA or
/// P-256) with an optional `key_id`. Relative paths are resolved against the file's folder.
public struct DevIdPRegistrations: Sendable {
    /// The OIDC clients.
    public var clients: [OIDCClientRegistration]
    /// The SAML service providers.
    public var serviceProviders: [SAMLServiceProviderRegistration]

    /// Creates registrations from values.
    public init(clients: [OIDCClientRegistration], serviceProviders: [SAMLServiceProviderRegistration]) {
        self.clients = clients
        self.serviceProviders = serviceProviders
    }

    /// The built-in demo client and service provider (``DevIdPDemo``).
    public static var demo: DevIdPRegistrations {
        DevIdPRegistrations(clients: [DevIdPDemo.client], serviceProviders: [DevIdPDemo.serviceProvider])
    }

    /// The file name in the data folder.
    public static let fileName = "clients.json"

    /// Reads a registrations file.
    public static func load(from file: URL) throws(DevIdPError) -> DevIdPRegistrations {
        let document = try JSONDocument(contentsOf: file)
        var clients: [OIDCClientRegistration] = []
        for entry in try document.objects("oidc_clients") { clients.append(try client(entry, in: document)) }
        var providers: [SAMLServiceProviderRegistration] = []
        for entry in try document.objects("saml_service_providers") {
            providers.append(try serviceProvider(entry, in: document))
        }
        return DevIdPRegistrations(clients: clients, serviceProviders: providers)
    }

    private static func client(_ entry: [String: JSONValue], in document: JSONDocument) throws(DevIdPError)
        -> OIDCClientRegistration
    {
        guard let clientID = try entry.string("client_id", in: document, required: true) else {
            throw document.invalid("a client has no client_id")
        }
        let method = try entry.string("token_endpoint_auth_method", in: document) ?? "client_secret_basic"
        let authentication: OIDCClientRegistration.Authentication
        switch method {
        case "none":
            authentication = .none
        case "client_secret_basic", "client_secret_post":
            guard let secret = try entry.string("client_secret", in: document, required: true) else {
                throw document.invalid("\(clientID) has no client_secret")
            }
            authentication = method == "client_secret_basic" ? .clientSecretBasic(secret) : .clientSecretPost(secret)
        case "private_key_jwt":
            authentication = .privateKeyJWT(try keySet(entry, in: document, clientID: clientID))
        default:
            throw document.invalid("\(clientID) has the unknown token_endpoint_auth_method \(method)")
        }
        let scopes = try entry.string("scope", in: document).map { Set($0.split(separator: " ").map(String.init)) }
        return OIDCClientRegistration(
            clientID: clientID, authentication: authentication,
            redirectURIs: try entry.strings("redirect_uris", in: document),
            postLogoutRedirectURIs: try entry.strings("post_logout_redirect_uris", in: document),
            allowedScopes: scopes ?? ScopeClaims.supportedScopes)
    }

    private static func keySet(_ entry: [String: JSONValue], in document: JSONDocument, clientID: String)
        throws(DevIdPError) -> JSONWebKeySet
    {
        do {
            if let inline = entry["jwks"] { return try JSONWebKeySet(document: inline) }
            if let file = try entry.string("jwks_file", in: document) {
                return try JSONWebKeySet(jsonBytes: Array(try document.text(at: file).utf8))
            }
        } catch let error as DevIdPError {
            throw error
        } catch {
            throw document.invalid("the JWK set of \(clientID) is not valid")
        }
        guard let file = try entry.string("public_key_file", in: document) else {
            throw document.invalid("\(clientID) uses private_key_jwt without jwks, jwks_file or public_key_file")
        }
        let pem = try document.text(at: file)
        let material: VerificationKey.Material
        if let rsa = try? _RSA.Signing.PublicKey(pemRepresentation: pem) {
            material = .rsa(rsa)
        } else if let p256 = try? P256.Signing.PublicKey(pemRepresentation: pem) {
            material = .p256(p256)
        } else {
            throw document.invalid("\(file) is not an RSA or P-256 public key in PEM")
        }
        return JSONWebKeySet(keys: [
            VerificationKey(keyID: try entry.string("key_id", in: document), material: material)
        ])
    }

    private static func serviceProvider(_ entry: [String: JSONValue], in document: JSONDocument) throws(DevIdPError)
        -> SAMLServiceProviderRegistration
    {
        guard let entityID = try entry.string("entity_id", in: document, required: true) else {
            throw document.invalid("a service provider has no entity_id")
        }
        var signing: [SAMLCertificate] = []
        for file in try entry.strings("signing_certificate_files", in: document) {
            signing.append(try certificate(file, in: document))
        }
        let encryption = try entry.string("encryption_certificate_file", in: document).map {
            file throws(DevIdPError) in try certificate(file, in: document)
        }
        return SAMLServiceProviderRegistration(
            entityID: entityID, assertionConsumerServiceURLs: try entry.strings("acs_urls", in: document),
            singleLogoutServiceURL: try entry.string("slo_url", in: document), signingCertificates: signing,
            requireSignedRequests: entry["require_signed_requests"] == nil
                ? nil : try entry.bool("require_signed_requests", in: document, default: false),
            encryptionCertificate: encryption,
            signAssertion: try entry.bool("sign_assertion", in: document, default: true),
            signResponse: try entry.bool("sign_response", in: document, default: true))
    }

    private static func certificate(_ file: String, in document: JSONDocument) throws(DevIdPError) -> SAMLCertificate {
        do {
            return try SAMLCertificate(pem: try document.text(at: file))
        } catch let error as DevIdPError {
            throw error
        } catch {
            throw document.invalid("\(file) is not a PEM certificate")
        }
    }
}
