import Foundation
import HTTPTypes
import SSOKitConformance
import SSOKitCore
import SSOKitExtension
import SSOKitOIDC
import Testing

/// Readers for results in tests: each fails the test with the result's kind when it is not the expected one.
extension AuthorizationResult {
    var response: CompactHTTPResponse? {
        if case .httpResponse(let response) = self { return response }
        return nil
    }

    var interaction: Interaction? {
        if case .needsInteraction(let interaction) = self { return interaction }
        return nil
    }

    var headers: HTTPFields? {
        if case .authorizationHeaders(let fields) = self { return fields }
        return nil
    }

    /// The JSON body of an HTTP response, as an object.
    var bodyObject: [String: JSONValue]? {
        guard let response else { return nil }
        return (try? JSONParser().parse(response.body))?.objectValue
    }

    /// The access token of a native OIDC answer.
    var accessToken: String? { bodyObject?["access_token"]?.stringValue }
}

/// The standard harness: one Redirect payload for the in-memory IdP's authorization endpoint and one Credential
/// payload for `.api.test`, both for the same issuer and client (so one app's tokens answer both).
func standardHarness(
    limits: ExtensionLimits = ExtensionLimits(), extra: String = "", credentialExtra: String = "",
    configure: (inout ExtensionEnvironment) -> Void = { _ in }
) throws -> AdapterHarness {
    try AdapterHarness(
        payloads: [
            AdapterHarness.oidcPayload(extra: extra),
            AdapterHarness.oidcPayload(
                "test.credential", type: "Credential", routes: #""Hosts": [".api.test"]"#, extra: credentialExtra),
        ], limits: limits, configure: configure)
}

/// The user's credentials for the in-memory IdP.
func credentials(_ harness: AdapterHarness) -> InteractionResponse {
    .credentials(["username": harness.idp.username, "password": harness.idp.password])
}
