import Foundation
import HTTPTypes
import SSOKitExtension
import SSOKitProxy
import Synchronization

/// The browser's side of the adapter: requests that the proxy intercepts (under a profile's Redirect URLs) go to
/// ``RedirectExtension`` as the browser's requests, and its compact answer goes back to the browser. A
/// credentials interaction is answered by `credentials` (the demo supplies the demo user's, and says so); a browser
/// interaction, `doNotHandle` or a failure the adapter calls `not_handled` lets the request through to the IdP.
final class AdapterProxyInterceptor: ProxyInterceptor {
    /// What the interceptor saw for one request, for the demo's report.
    struct Exchange: Sendable {
        var url: String
        var result: String
        var responseBytes: Int?
        var askedForCredentials: Bool
    }

    private let adapter: RedirectExtension
    private let browserBundleIdentifier: String
    private let credentials: @Sendable () -> [String: String]
    private let exchanges = Mutex<[Exchange]>([])

    init(
        adapter: RedirectExtension, browserBundleIdentifier: String,
        credentials: @escaping @Sendable () -> [String: String]
    ) {
        self.adapter = adapter
        self.browserBundleIdentifier = browserBundleIdentifier
        self.credentials = credentials
    }

    /// Every exchange so far, oldest first; `since` skips the first ones.
    func exchanges(since start: Int = 0) -> [Exchange] {
        exchanges.withLock { Array($0.dropFirst(start)) }
    }

    var exchangeCount: Int { exchanges.withLock { $0.count } }

    func intercept(_ request: InterceptedRequest) async -> InterceptionDecision {
        let target =
            (request.request.scheme ?? "http") + "://" + (request.request.authority ?? "")
            + (request.request.path ?? "/")
        guard let url = URL(string: target) else { return .passThrough }
        var result = await adapter.authorize(
            AuthorizationRequest(
                url: url, httpMethod: request.request.method.rawValue, httpHeaders: request.request.headerFields,
                httpBody: request.body, callerBundleIdentifier: browserBundleIdentifier))
        var asked = false
        // One credentials round; a second request for them means the IdP refused what was supplied.
        if case .needsInteraction(let interaction) = result, case .credentials = interaction.kind {
            asked = true
            result = await adapter.resume(interaction: interaction.id, with: .credentials(credentials()))
        }
        let decision: InterceptionDecision
        var size: Int?
        switch result {
        case .httpResponse(let response):
            size = response.countedBytes
            decision = .respond(
                HTTPResponse(status: .init(code: response.status), headerFields: response.headerFields),
                body: response.body)
        case .failure(let failure) where failure.code != .notHandled:
            let text = "SSO extension: \(failure.code)/\(failure.reason)\n"
            var fields = HTTPFields()
            fields[.contentType] = "text/plain; charset=utf-8"
            fields[.cacheControl] = "no-store"
            decision = .respond(HTTPResponse(status: .badGateway, headerFields: fields), body: Array(text.utf8))
        default:
            decision = .passThrough
        }
        let exchange = Exchange(url: target, result: result.kind, responseBytes: size, askedForCredentials: asked)
        exchanges.withLock { $0.append(exchange) }
        return decision
    }
}
