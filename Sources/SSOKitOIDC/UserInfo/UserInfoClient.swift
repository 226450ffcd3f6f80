import Foundation
import HTTPTypes
import SSOKitCore

/// Fetches the UserInfo claims (OIDC Core §5.3) and ties them to the authenticated user.
public struct UserInfoClient: Sendable {
    private let endpoint: URL
    private let transport: any HTTPTransport

    /// Creates a client for the provider's `userinfo_endpoint`.
    public init(endpoint: URL, transport: any HTTPTransport) throws(OIDCError) {
        guard EndpointSecurity.isAllowed(endpoint) else {
            throw OIDCError(.insecureURL, "the userinfo endpoint must be https")
        }
        self.endpoint = endpoint
        self.transport = transport
    }

    /// The claims, after checking that their `sub` equals the ID token's (§5.3.2: otherwise they must not be used).
    public func fetch(accessToken: String, expectedSubject: String) async throws(OIDCError) -> [String: JSONValue] {
        var request = try ProviderHTTP.request(.get, endpoint)
        request.headerFields[.authorization] = "Bearer " + accessToken
        let response = try await ProviderHTTP.send(request, body: nil, transport: transport, failure: .transportFailed)
        guard response.response.status.code == 200 else {
            throw OIDCError(.unexpectedStatus, "the userinfo endpoint answered HTTP \(response.response.status.code)")
        }
        let claims = try ProviderHTTP.jsonObject(response.body, failure: .invalidUserInfo, what: "userinfo response")
        guard let subject = claims["sub"]?.stringValue else {
            throw OIDCError(.invalidUserInfo, "the userinfo response has no sub")
        }
        guard subject == expectedSubject else {
            throw OIDCError(.userInfoSubjectMismatch, "the userinfo sub differs from the ID token's")
        }
        return claims
    }
}
