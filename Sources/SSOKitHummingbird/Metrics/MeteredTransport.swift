import HTTPTypes
import SSOKitCore
import SSOKitOIDC

/// An `HTTPTransport` that counts, around another: the exchanges with IdPs (for cache hits), the
/// refresh-token grants, and the failed exchanges. It reads a request body only for its `grant_type`, and records
/// no value.
public struct MeteredTransport: HTTPTransport {
    private let base: any HTTPTransport
    private let metrics: AppAPIMetrics

    /// `base`, counted into `metrics`.
    public init(_ base: any HTTPTransport, metrics: AppAPIMetrics) {
        self.base = base
        self.metrics = metrics
    }

    public func send(_ request: HTTPRequest, body: [UInt8]?) async throws -> HTTPTransportResponse {
        IdPExchangeCount.current?.increment()
        if request.method == .post, let body, Self.isRefreshGrant(body) { metrics.refreshed() }
        do {
            let response = try await base.send(request, body: body)
            if response.response.status.kind == .serverError { metrics.identityProviderError(kind: "server_error") }
            return response
        } catch {
            metrics.identityProviderError(kind: "transport")
            throw error
        }
    }

    private static func isRefreshGrant(_ body: [UInt8]) -> Bool {
        guard body.count <= 64 * 1024,
            let pairs = FormURLEncoding.decode(String(decoding: body, as: UTF8.self))
        else { return false }
        return pairs.contains { $0.0 == "grant_type" && $0.1 == "refresh_token" }
    }
}
