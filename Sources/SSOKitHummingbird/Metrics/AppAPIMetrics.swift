import CoreMetrics
import Foundation
import SSOKitExtension

/// What the app API and the proxy count, through swift-metrics (any backend; `ssokit serve` exposes Prometheus at
/// `GET /metrics`):
///
/// - `ssokit_requests_total{route, operation, outcome}`: each answered request; `outcome` is the result kind
///   (`http_response`, `needs_interaction`, `failure`, ...) or the refusal's code (`app_not_permitted`, ...);
/// - `ssokit_request_duration_seconds{route}`: a latency histogram;
/// - `ssokit_cache_hits_total{route}`: answers with tokens or a compact response that needed no IdP request;
/// - `ssokit_refreshes_total`: refresh-token grants sent to an IdP;
/// - `ssokit_idp_errors_total{kind}`: IdP exchanges that failed (`transport`, `server_error`).
///
/// Dimensions are names from a closed set: never an app's bundle ID, a user or a token.
public struct AppAPIMetrics: Sendable {
    private let factory: any MetricsFactory

    /// Metrics made by `factory` (by default the process's bootstrapped one).
    public init(factory: any MetricsFactory = MetricsSystem.factory) {
        self.factory = factory
    }

    /// Counts one answered request of `route` and its latency since `start`.
    func answered(route: String, operation: String, outcome: String, since start: ContinuousClock.Instant) {
        Counter(
            label: "ssokit_requests_total",
            dimensions: [("route", route), ("operation", operation), ("outcome", outcome)], factory: factory
        ).increment()
        let elapsed = ContinuousClock.now - start
        CoreMetrics.Timer(label: "ssokit_request_duration_seconds", dimensions: [("route", route)], factory: factory)
            .recordNanoseconds(
                elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
    }

    /// Counts a cache hit: `result` carries an answer and `exchanges` saw no IdP request.
    func cacheHit(route: String, result: AuthorizationResult, exchanges: IdPExchangeCount) {
        switch result {
        case .httpResponse, .authorizationHeaders:
            guard exchanges.value == 0 else { return }
            Counter(label: "ssokit_cache_hits_total", dimensions: [("route", route)], factory: factory).increment()
        default:
            return
        }
    }

    /// Counts one refresh-token grant.
    func refreshed() {
        Counter(label: "ssokit_refreshes_total", factory: factory).increment()
    }

    /// Counts one failed IdP exchange of `kind`.
    func identityProviderError(kind: String) {
        Counter(label: "ssokit_idp_errors_total", dimensions: [("kind", kind)], factory: factory).increment()
    }

    /// An operation as a dimension: the known names, `none`, or `custom` (an app's own names stay out).
    static func dimension(_ operation: AuthorizationOperation) -> String {
        switch operation {
        case .none, .login, .refresh, .logout, .implicit, .configurationRemoved, .directRequest:
            operation.description
        default:
            "custom"
        }
    }
}
