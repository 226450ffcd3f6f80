import Foundation
import SSOKitCore

extension OIDCProviderConfiguration {
    /// Reads `protocol` `oidc` ExtensionData; nil when a problem was logged.
    static func read(_ fields: PayloadFields, files: ProfileFileContext) -> OIDCProviderConfiguration? {
        let before = fields.log.problems.count
        let issuer = fields.string("issuer", required: true)
        if let issuer { checkIssuer(issuer, fields) }
        let clientID = fields.string("client_id", required: true)
        let secret = clientSecret(fields, files: files)
        let method = authenticationMethod(fields)
        let scopes = fields.strings("scopes", separator: " ") ?? ["openid"]
        if !scopes.contains("openid") {
            fields.problem("scopes", .invalidValue, "scopes must include openid")
        }
        let redirectURI = fields.string("redirect_uri")
        if let redirectURI { checkRedirectURI(redirectURI, fields) }
        let interaction: LoginInteraction? = fields.oneOf("login_interaction")
        guard fields.log.problems.count == before, let issuer, let clientID, let method else { return nil }
        return OIDCProviderConfiguration(
            issuer: issuer, clientID: clientID, clientAuthenticationMethod: method, clientSecret: secret,
            scopes: scopes, redirectURI: redirectURI, loginInteraction: interaction ?? .form)
    }

    /// The issuer must be an absolute https URL (http on loopback) without query or fragment (OIDC Discovery §3).
    private static func checkIssuer(_ issuer: String, _ fields: PayloadFields) {
        guard let url = URL(string: issuer), let components = URLComponents(string: issuer),
            components.query == nil, components.fragment == nil, components.host?.isEmpty == false
        else {
            fields.problem("issuer", .invalidValue, "issuer must be an absolute URL without query or fragment")
            return
        }
        if !EndpointSecurity.isAllowed(url) {
            fields.problem("issuer", .insecureURL, "issuer must be https (plain http only on a loopback host)")
        }
    }

    /// A redirect URI is absolute; an http(s) one must be https or loopback (RFC 8252 §7.3), others are the
    /// app's private-use scheme (§7.1).
    private static func checkRedirectURI(_ uri: String, _ fields: PayloadFields) {
        guard let url = URL(string: uri), let scheme = url.scheme?.lowercased() else {
            fields.problem("redirect_uri", .invalidValue, "redirect_uri must be an absolute URI")
            return
        }
        if (scheme == "http" || scheme == "https") && !EndpointSecurity.isAllowed(url) {
            fields.problem("redirect_uri", .insecureURL, "an http redirect_uri must be on a loopback host")
        }
    }

    private static func clientSecret(_ fields: PayloadFields, files: ProfileFileContext) -> ProfileSecret? {
        if fields.has("client_secret") && fields.has("client_secret_file") {
            fields.problem("client_secret_file", .conflictingKeys, "give client_secret or client_secret_file, not both")
            return nil
        }
        if let inline = fields.string("client_secret") { return ProfileSecret(inline) }
        guard fields.has("client_secret_file"), let text = files.text(of: "client_secret_file", in: fields) else {
            return nil
        }
        let secret = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !secret.isEmpty else {
            fields.problem("client_secret_file", .invalidFile, "the client secret file is empty")
            return nil
        }
        return ProfileSecret(secret)
    }

    private static func authenticationMethod(_ fields: PayloadFields) -> ClientAuthenticationMethod? {
        let secretGiven = fields.has("client_secret") || fields.has("client_secret_file")
        guard fields.has("client_auth") else {
            return secretGiven ? .clientSecretBasic : ClientAuthenticationMethod.none
        }
        guard let method: ClientAuthenticationMethod = fields.oneOf("client_auth") else { return nil }
        switch method {
        case .clientSecretBasic, .clientSecretPost:
            if !secretGiven {
                fields.problem(
                    "client_secret", .missingKey,
                    "client_auth \(method.rawValue) needs client_secret or client_secret_file")
            }
        case .none, .privateKeyJWT:
            if secretGiven {
                fields.problem("client_auth", .conflictingKeys, "client_auth \(method.rawValue) takes no client secret")
            }
        }
        return method
    }
}
