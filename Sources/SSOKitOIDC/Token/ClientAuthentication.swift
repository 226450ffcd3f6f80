import Foundation
import SSOKitCore

/// How the client proves its identity at the token, revocation and device endpoints (OIDC Core §9).
public struct ClientAuthentication: Sendable {
    enum Method: Sendable {
        case none
        case secretBasic(String)
        case secretPost(String)
        case privateKeyJWT(any ClientAssertionSigner)
    }

    let method: Method

    /// A public client: only `client_id` is sent.
    public static let none = ClientAuthentication(method: .none)

    /// HTTP Basic with the form-urlencoded client ID and secret (RFC 6749 §2.3.1).
    public static func clientSecretBasic(_ secret: String) -> ClientAuthentication {
        ClientAuthentication(method: .secretBasic(secret))
    }

    /// `client_id` and `client_secret` in the request body.
    public static func clientSecretPost(_ secret: String) -> ClientAuthentication {
        ClientAuthentication(method: .secretPost(secret))
    }

    /// A JWT client assertion signed with a key the caller holds (RFC 7523 §2.2, OIDC Core §9).
    public static func privateKeyJWT(_ signer: any ClientAssertionSigner) -> ClientAuthentication {
        ClientAuthentication(method: .privateKeyJWT(signer))
    }

    /// The `token_endpoint_auth_method` name.
    public var name: String {
        switch method {
        case .none: "none"
        case .secretBasic: "client_secret_basic"
        case .secretPost: "client_secret_post"
        case .privateKeyJWT: "private_key_jwt"
        }
    }

    /// Adds this authentication to a request's headers and form parameters.
    func apply(
        clientID: String, audience: String, now: Date, headers: inout [(String, String)], form: inout [(String, String)]
    ) async throws(OIDCError) {
        switch method {
        case .none:
            form.append(("client_id", clientID))
        case .secretBasic(let secret):
            let credentials = FormURLEncoding.escape(clientID) + ":" + FormURLEncoding.escape(secret)
            headers.append(("Authorization", "Basic " + Data(credentials.utf8).base64EncodedString()))
        case .secretPost(let secret):
            form.append(("client_id", clientID))
            form.append(("client_secret", secret))
        case .privateKeyJWT(let signer):
            let claims = ClientAssertionClaims(
                clientID: clientID, audience: audience, issuedAt: now, expiresAt: now.addingTimeInterval(60),
                jwtID: RandomToken.make(byteCount: 16))
            let assertion: String
            do {
                assertion = try await signer.sign(claims)
            } catch {
                throw OIDCError(.invalidClient, "signing the client assertion failed")
            }
            form.append(("client_id", clientID))
            form.append(("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"))
            form.append(("client_assertion", assertion))
        }
    }
}
