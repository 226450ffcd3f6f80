import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Prometheus
import SSOKitCore
import SSOKitExtension
import SSOKitHummingbird
import SSOKitTesting
import Synchronization
import Testing

/// `GET /metrics`: the Prometheus exposition of requests by operation and outcome, latency, cache hits,
/// refresh grants and IdP errors, read after real requests.
@Suite struct MetricsTests {
    @Test func theExpositionCountsRequestsCacheHitsRefreshesAndIdPErrors() async throws {
        let registry = PrometheusCollectorRegistry()
        let metrics = AppAPIMetrics(factory: PrometheusMetricsFactory(registry: registry))
        let failures = FailingTransport.Switch()
        let harness = try AdapterHarness(
            payloads: [AdapterHarness.oidcPayload()],
            configure: {
                $0.transport = MeteredTransport(
                    FailingTransport(base: $0.transport, failures: failures), metrics: metrics)
            })
        let router = Router(context: AppAPIRequestContext.self)
        AppAPI(
            adapter: AdapterSlot(harness.adapter), registry: AppAPIFixture.registry,
            owners: InteractionOwners(cache: harness.cache, clock: harness.clock),
            identification: CallerIdentification { request, _ in
                request.headers[AppAPIFixture.callerHeader].flatMap { UInt32($0) }.map { .localUser(uid: $0) }
            }, metrics: metrics, exposition: { registry.emitToString() }
        ).addRoutes(to: router)
        let credentials = #"{"username": "\#(harness.idp.username)", "password": "\#(harness.idp.password)"}"#
        try await Application(router: router).test(.router) { client in
            let before = try await client.get("/metrics")
            #expect(before.status == .ok)
            #expect(!before.text.contains("ssokit_requests_total"))

            let started = try await client.post(
                "/v1/authorize", uid: 1000, body: authorizeBody(app: "com.example.mail"))
            let id = try #require(started.interactionID)
            _ = try await client.post("/v1/interactions/\(id)", uid: 1000, body: credentials)
            // From the cache: no IdP request.
            let cached = try await client.post(
                "/v1/authorize", uid: 1000, body: authorizeBody(app: "com.example.mail", operation: "refresh"))
            #expect(cached.result == "http_response")
            // Expired: a refresh grant.
            harness.clock.advance(7200)
            let refreshed = try await client.post(
                "/v1/authorize", uid: 1000, body: authorizeBody(app: "com.example.mail", operation: "refresh"))
            #expect(refreshed.result == "http_response", "\(refreshed.text)")
            _ = try await client.post("/v1/authorize", uid: 1000, body: authorizeBody(app: "com.example.other"))
            // The IdP fails: an IdP error.
            failures.failNext(1)
            _ = try await client.post(
                "/v1/authorize", uid: 1000, body: authorizeBody(app: "com.example.notes", operation: "login"))

            let exposition = try await client.get("/metrics")
            #expect(exposition.headers[.contentType]?.hasPrefix("text/plain") == true)
            let text = exposition.text
            #expect(
                text.contains(
                    #"ssokit_requests_total{route="authorize",operation="login",outcome="needs_interaction"} 1"#),
                "\(text)")
            #expect(
                text.contains(
                    #"ssokit_requests_total{route="interaction",operation="resume",outcome="http_response"} 1"#))
            #expect(
                text.contains(
                    #"ssokit_requests_total{route="authorize",operation="refresh",outcome="http_response"} 2"#))
            #expect(
                text.contains(
                    #"ssokit_requests_total{route="authorize",operation="login",outcome="app_not_permitted"} 1"#))
            #expect(text.contains(#"ssokit_cache_hits_total{route="authorize"} 1"#))
            #expect(text.contains("ssokit_refreshes_total 1"))
            #expect(text.contains(#"ssokit_idp_errors_total{kind="transport"} 1"#))
            #expect(text.contains(#"ssokit_request_duration_seconds_count{route="authorize"}"#))
            #expect(!text.contains("com.example"))
        }
    }
}

/// A transport that fails its next requests on demand, as an unreachable IdP would.
struct FailingTransport: HTTPTransport {
    final class Switch: Sendable {
        private let remaining = Mutex(0)

        func failNext(_ count: Int) { remaining.withLock { $0 = count } }

        func take() -> Bool {
            remaining.withLock { value in
                guard value > 0 else { return false }
                value -= 1
                return true
            }
        }
    }

    struct Unreachable: Error {}

    let base: any HTTPTransport
    let failures: Switch

    func send(_ request: HTTPRequest, body: [UInt8]?) async throws -> HTTPTransportResponse {
        if failures.take() { throw Unreachable() }
        return try await base.send(request, body: body)
    }
}
