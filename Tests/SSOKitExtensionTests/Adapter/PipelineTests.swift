import Foundation
import HTTPTypes
import SSOKitConformance
import SSOKitExtension
import Testing

/// The decision pipeline's first steps: the caller's identifier, the payload, the caller policy, the screen lock.
@Suite struct PipelineTests {
    func harness(payloadExtra: String = "", extra: String = "") throws -> AdapterHarness {
        try AdapterHarness(payloads: [AdapterHarness.oidcPayload(extra: extra, payloadExtra: payloadExtra)])
    }

    @Test func anUnmatchedURLIsNotHandled() async throws {
        let harness = try harness()
        for url in ["https://other.test/authorize", "https://idp.test/token", "ftp://idp.test/authorize"] {
            let request = AuthorizationRequest(url: URL(string: url), callerBundleIdentifier: "com.example.mail")
            #expect(await harness.adapter.authorize(request) == .doNotHandle)
        }
        #expect(harness.adapter.canPerformAuthorization(url: URL(string: "https://idp.test/authorize?x=1")!))
        #expect(harness.adapter.canPerformAuthorization(url: URL(string: "https://idp.test")!))
        #expect(!harness.adapter.canPerformAuthorization(url: URL(string: "https://other.test/")!))
        #expect(harness.idp.requestCounts.isEmpty)
    }

    @Test func anOperationFindsItsPayloadByTheIdPsURLOrAsTheOnlyOne() async throws {
        let harness = try harness()
        let byIssuer = AuthorizationRequest(
            url: URL(string: "https://idp.test"), callerBundleIdentifier: "com.example.mail",
            isUserInterfaceEnabled: false,
            operation: .login)
        #expect(await harness.adapter.authorize(byIssuer).failure?.reason == .loginRequired)
        let withoutURL = AuthorizationRequest(
            url: nil, callerBundleIdentifier: "com.example.mail", isUserInterfaceEnabled: false, operation: .login)
        #expect(await harness.adapter.authorize(withoutURL).failure?.reason == .loginRequired)
        let intercepted = AuthorizationRequest(url: URL(string: "https://idp.test"), callerBundleIdentifier: "a.b")
        #expect(await harness.adapter.authorize(intercepted) == .doNotHandle)
    }

    @Test(arguments: [
        (#", "AppBlockList": ["com.example.blocked"]"#, "", "com.example.blocked", false),
        (#", "AppAllowList": ["com.example.mail"]"#, "", "com.example.other", false),
        (#", "AppAllowList": ["com.example.mail"]"#, "", "com.example.mail", true),
        (#", "AppPrefixAllowList": "com.example.""#, "", "com.example.any", true),
        (#", "AppPrefixAllowList": "com.example.""#, "", "org.example.any", false),
        ("", #", "DeniedBundleIdentifiers": ["com.example.denied"]"#, "com.example.denied", false),
    ])
    func theCallerPolicyDecidesBeforeAnyIdPIsContacted(extra: String, payloadExtra: String, app: String, served: Bool)
        async throws
    {
        let harness = try harness(payloadExtra: payloadExtra, extra: extra)
        let result = await harness.adapter.authorize(harness.operation(.login, app: app, ui: false))
        if served {
            #expect(result.failure?.reason == .loginRequired)
        } else {
            #expect(result == .doNotHandle)
            #expect(harness.idp.requestCounts.isEmpty)
        }
    }

    @Test func theScreenLockedBehaviourIsHonoured() async throws {
        var request = try harness().operation(.login, app: "com.example.mail")
        request.isScreenLocked = true
        let cancel = try harness()
        #expect(await cancel.adapter.authorize(request) == .failure(AuthorizationFailure(.canceled, .screenLocked, "")))
        let passThrough = try harness(payloadExtra: #", "ScreenLockedBehavior": "DoNotHandle""#)
        #expect(await passThrough.adapter.authorize(request) == .doNotHandle)
    }

    @Test(arguments: ["", "#idp-session", "com.example.mail\u{0}", "com example", String(repeating: "a", count: 256)])
    func aCallerIdentifierThatIsNoBundleIdentifierIsRefused(app: String) async throws {
        let harness = try harness()
        let result = await harness.adapter.authorize(harness.operation(.refresh, app: app))
        #expect(result.failure == AuthorizationFailure(.failed, .invalidRequest, ""))
    }

    @Test func unknownOperationsAreNotHandled() async throws {
        let harness = try harness()
        let result = await harness.adapter.authorize(
            harness.operation(AuthorizationOperation(parsing: "com.example.rotateKeys"), app: "com.example.mail"))
        #expect(result.failure == AuthorizationFailure(.notHandled, .unsupportedOperation, ""))
    }

    @Test func aRealmThatDiffersFromTheCredentialPayloadsIsNotHandled() async throws {
        let harness = try AdapterHarness(payloads: [
            AdapterHarness.oidcPayload(
                "test.credential", type: "Credential", routes: #""Hosts": ["api.test"]"#,
                payloadExtra: #", "Realm": "EXAMPLE.COM""#)
        ])
        var fields = HTTPFields()
        fields[.wwwAuthenticate] = "Bearer"
        var request = AuthorizationRequest(
            url: URL(string: "https://api.test/data"), httpHeaders: fields, realm: "OTHER.ORG",
            callerBundleIdentifier: "com.example.mail", isUserInterfaceEnabled: false)
        #expect(await harness.adapter.authorize(request) == .doNotHandle)
        request.realm = "example.com"
        #expect(await harness.adapter.authorize(request).failure?.reason == .loginRequired)
    }
}
