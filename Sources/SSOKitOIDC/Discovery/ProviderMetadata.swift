import Foundation
import SSOKitCore

/// An OpenID Provider's discovery document (OIDC Discovery 1.0 §3), validated against the configured issuer.
public struct ProviderMetadata: Sendable {
    /// `issuer`, equal to the configured issuer.
    public let issuer: String
    /// `authorization_endpoint`.
    public let authorizationEndpoint: URL
    /// `token_endpoint`.
    public let tokenEndpoint: URL
    /// `jwks_uri`.
    public let jwksURI: URL
    /// `userinfo_endpoint`, when offered.
    public let userInfoEndpoint: URL?
    /// `revocation_endpoint` (RFC 7009), when offered.
    public let revocationEndpoint: URL?
    /// `device_authorization_endpoint` (RFC 8628), when offered.
    public let deviceAuthorizationEndpoint: URL?
    /// `end_session_endpoint`, when offered.
    public let endSessionEndpoint: URL?
    /// `authorization_response_iss_parameter_supported` (RFC 9207): callbacks must then carry `iss`.
    public let authorizationResponseIssuerParameterSupported: Bool
    /// `code_challenge_methods_supported`, when listed.
    public let codeChallengeMethodsSupported: [String]?
    /// `token_endpoint_auth_methods_supported`, when listed.
    public let tokenEndpointAuthMethodsSupported: [String]?
    /// `id_token_signing_alg_values_supported`, when listed.
    public let idTokenSigningAlgorithmsSupported: [String]?
    /// Every member, as published.
    public let document: [String: JSONValue]

    /// Validates a document: `issuer` equals `configuredIssuer` exactly (§4.3), the required endpoints are
    /// present, and every endpoint is https (or http on a loopback host).
    public init(document: [String: JSONValue], configuredIssuer: String) throws(OIDCError) {
        guard let issuer = document["issuer"]?.stringValue else {
            throw OIDCError(.invalidDiscoveryDocument, "the discovery document has no issuer")
        }
        guard issuer == configuredIssuer else {
            throw OIDCError(.issuerMismatch, "the discovery document's issuer is not the configured issuer")
        }
        try IssuerIdentifier.validate(issuer)
        func endpoint(_ name: String) throws(OIDCError) -> URL? {
            guard let value = document[name] else { return nil }
            guard let string = value.stringValue, let url = URL(string: string), url.host != nil else {
                throw OIDCError(.invalidDiscoveryDocument, "\(name) is not an absolute URL")
            }
            guard EndpointSecurity.isAllowed(url) else {
                throw OIDCError(.insecureURL, "\(name) must be https (or http on a loopback host)")
            }
            return url
        }
        func required(_ name: String) throws(OIDCError) -> URL {
            guard let url = try endpoint(name) else {
                throw OIDCError(.invalidDiscoveryDocument, "the discovery document has no \(name)")
            }
            return url
        }
        func strings(_ name: String) throws(OIDCError) -> [String]? {
            guard let value = document[name] else { return nil }
            guard let list = value.arrayValue?.compactMap(\.stringValue), list.count == value.arrayValue?.count else {
                throw OIDCError(.invalidDiscoveryDocument, "\(name) is not a list of strings")
            }
            return list
        }
        self.issuer = issuer
        authorizationEndpoint = try required("authorization_endpoint")
        tokenEndpoint = try required("token_endpoint")
        jwksURI = try required("jwks_uri")
        userInfoEndpoint = try endpoint("userinfo_endpoint")
        revocationEndpoint = try endpoint("revocation_endpoint")
        deviceAuthorizationEndpoint = try endpoint("device_authorization_endpoint")
        endSessionEndpoint = try endpoint("end_session_endpoint")
        authorizationResponseIssuerParameterSupported =
            document["authorization_response_iss_parameter_supported"]?.boolValue ?? false
        codeChallengeMethodsSupported = try strings("code_challenge_methods_supported")
        tokenEndpointAuthMethodsSupported = try strings("token_endpoint_auth_methods_supported")
        idTokenSigningAlgorithmsSupported = try strings("id_token_signing_alg_values_supported")
        self.document = document
    }

    /// Parses and validates a document from JSON bytes.
    public init(jsonBytes: some Collection<UInt8>, configuredIssuer: String) throws(OIDCError) {
        guard let value = try? JSONParser().parse(jsonBytes), let object = value.objectValue else {
            throw OIDCError(.invalidDiscoveryDocument, "the discovery document is not a JSON object")
        }
        try self.init(document: object, configuredIssuer: configuredIssuer)
    }

    /// `ISSUER/.well-known/openid-configuration`, with any trailing `/` of the issuer removed first (§4).
    public static func discoveryURL(forIssuer issuer: String) throws(OIDCError) -> URL {
        try IssuerIdentifier.validate(issuer)
        var base = issuer
        while base.hasSuffix("/") { base.removeLast() }
        guard let url = URL(string: base + "/.well-known/openid-configuration"), EndpointSecurity.isAllowed(url) else {
            throw OIDCError(.insecureURL, "the issuer must be an https URL (or http on a loopback host)")
        }
        return url
    }
}
