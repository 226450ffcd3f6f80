import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import SSOKitHummingbird
import SSOKitProxy
import SSOKitTesting
import Testing

/// The production identification over a real connection: plain TCP between loopback addresses is the
/// `loopback` caller; the registry's `loopback` list decides what it may act as.
@Suite struct ConnectionIdentityTests {
    private func application(registry: CallerRegistry) throws -> Application<RouterResponder<AppAPIRequestContext>> {
        let harness = try AdapterHarness(payloads: [AdapterHarness.oidcPayload()])
        let router = Router(context: AppAPIRequestContext.self)
        AppAPI(
            adapter: AdapterSlot(harness.adapter), registry: registry,
            owners: InteractionOwners(cache: harness.cache, clock: harness.clock), identification: .connection,
            autoConfig: {
                try? ProxyAutoConfig(prefixes: [InterceptPrefix("https://idp.test/authorize")], proxyPort: 8888)
            }
        ).addRoutes(to: router)
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    @Test func aLoopbackConnectionActsAsTheLoopbackList() async throws {
        var registry = CallerRegistry()
        registry.grant(.applications(["com.example.dev"]), to: .loopback)
        try await application(registry: registry).test(.live) { client in
            let permitted = try await client.post(
                "/v1/authorize", uid: nil, body: authorizeBody(app: "com.example.dev"))
            #expect(permitted.result == "needs_interaction", "\(permitted.text)")
            let refused = try await client.post("/v1/authorize", uid: nil, body: authorizeBody(app: "com.example.mail"))
            #expect(refused.status == .forbidden)
            #expect(refused.error == "app_not_permitted")
        }
    }

    @Test func withoutALoopbackListNoAppIsPermitted() async throws {
        try await application(registry: CallerRegistry()).test(.live) { client in
            let refused = try await client.post("/v1/authorize", uid: nil, body: authorizeBody(app: "com.example.dev"))
            #expect(refused.error == "app_not_permitted")
        }
    }

    @Test func theProxyAutoConfigNamesTheRedirectHost() async throws {
        try await application(registry: CallerRegistry()).test(.live) { client in
            let answer = try await client.get("/proxy.pac")
            #expect(answer.status == .ok)
            #expect(answer.headers[.contentType] == "application/x-ns-proxy-autoconfig")
            #expect(answer.text.contains("FindProxyForURL"))
            #expect(answer.text.contains("https idp.test 443"))
            #expect(answer.text.contains("PROXY 127.0.0.1:8888"))
        }
    }
}
