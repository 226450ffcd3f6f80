import Foundation
import HTTPTypes
import SSOKitCore
import SSOKitExtension
import SSOKitOIDC
import SSOKitProxy

/// The browser's side of the adapter, for `InterceptingProxy`: a request under a profile's Redirect
/// URL goes to the adapter as the browser's own request, and its compact answer (a 302, an auto-post form) goes
/// back to the browser. `doNotHandle`, a browser interaction and a `not_handled` failure let the request through
/// to the IdP; any other failure is a short `text/plain` answer: 400 for an invalid request, 403 for an app the
/// profile does not serve, 502 for the IdP's failures.
///
/// A credentials interaction is answered as ``CredentialsAnswer`` says: with the extension's own sign-in page
/// (``CredentialsAnswer/signInPage(owners:)``, what `ssokit serve` does), or with supplied credentials (a demo).
public final class AdapterProxyInterceptor: ProxyInterceptor {
    /// How a credentials interaction for the browser is answered.
    public enum CredentialsAnswer: Sendable {
        /// A small sign-in page whose POST (to the same intercepted URL) resumes the interaction and gets the
        /// compact answer. The interaction is bound to that browser by a random, HttpOnly, SameSite=Strict cookie
        /// (kept as an owner in `owners`): no other browser, and no app on the app API, can resume it.
        case signInPage(owners: InteractionOwners)
        /// These credentials, at once (one round: a second request for them means the IdP refused them).
        case supplied(@Sendable () -> [String: String])
    }

    /// What happened to one intercepted request (for a host's report; it carries no secret).
    public struct Exchange: Sendable {
        /// The intercepted URL.
        public var url: String
        /// The adapter's result kind (`http_response`, `needs_interaction`, ...).
        public var result: String
        /// The compact answer's size, when there was one.
        public var responseBytes: Int?
        /// Whether credentials were asked for.
        public var askedForCredentials: Bool
    }

    /// The name prefix of the sign-in page's binding cookies: the host passes it to
    /// `ProxyConfiguration.privateCookieNamePrefixes` so that the IdP never sees them.
    public static let signInCookieNamePrefix = SignInCookie.prefix

    let slot: AdapterSlot
    /// The calling app the intercepted requests carry (a browser's).
    public let browserBundleIdentifier: String
    let credentials: CredentialsAnswer
    private let onExchange: @Sendable (Exchange) -> Void

    /// An interceptor over the adapter in `adapter`; intercepted requests carry `browserBundleIdentifier` as their
    /// calling app (a browser's, so that browser SSO applies); `onExchange` sees each exchange.
    public init(
        adapter: AdapterSlot, browserBundleIdentifier: String = "org.chromium.chromium",
        credentials: CredentialsAnswer, onExchange: @escaping @Sendable (Exchange) -> Void = { _ in }
    ) {
        slot = adapter
        self.browserBundleIdentifier = browserBundleIdentifier
        self.credentials = credentials
        self.onExchange = onExchange
    }

    public func intercept(_ request: InterceptedRequest) async -> InterceptionDecision {
        let target =
            (request.request.scheme ?? "http") + "://" + (request.request.authority ?? "")
            + (request.request.path ?? "/")
        guard let url = URL(string: target) else { return .passThrough }
        if case .signInPage(let owners) = credentials, let form = SignInAnswer(request) {
            return await signIn(form, owners: owners, url: target, path: SignInCookie.path(for: request))
        }
        let adapter = slot.adapter
        var headers = request.request.headerFields
        headers[.cookie] = SignInCookie.removing(from: headers[.cookie])
        var result = await adapter.authorize(
            AuthorizationRequest(
                url: url, httpMethod: request.request.method.rawValue, httpHeaders: headers,
                httpBody: request.body, callerBundleIdentifier: browserBundleIdentifier))
        var asked = false
        if case .needsInteraction(let interaction) = result, case .credentials(let fields) = interaction.kind {
            asked = true
            switch credentials {
            case .supplied(let supply):
                result = await adapter.resume(interaction: interaction.id, with: .credentials(supply()))
            case .signInPage(let owners):
                let decision = await page(interaction, fields: fields, owners: owners, url: target, request: request)
                record(target, result, asked: true)
                return decision
            }
        }
        record(target, result, asked: asked)
        return Self.decision(for: result)
    }

    /// The browser's answer to the compact result.
    static func decision(for result: AuthorizationResult, extraFields: HTTPFields = HTTPFields())
        -> InterceptionDecision
    {
        switch result {
        case .httpResponse(let response):
            var fields = response.headerFields
            fields.append(contentsOf: extraFields)
            return .respond(
                HTTPResponse(status: .init(code: response.status), headerFields: fields), body: response.body)
        case .failure(let failure) where failure.code != .notHandled:
            var fields = extraFields
            fields[.contentType] = "text/plain; charset=utf-8"
            fields[.cacheControl] = "no-store"
            return .respond(
                HTTPResponse(status: status(for: failure), headerFields: fields),
                body: Array("SSO extension: \(failure.code)/\(failure.reason)\n".utf8))
        default:
            return .passThrough
        }
    }

    /// A failure's status for the browser: 400 for a request the browser got wrong, 403 for one the profile does
    /// not permit, 429 when too many sign-ins are pending, 502 for the IdP's or the network's failures.
    static func status(for failure: AuthorizationFailure) -> HTTPResponse.Status {
        switch failure.reason {
        case .invalidRequest: .badRequest
        case .appNotPermitted: .forbidden
        case .tooManyInteractions: .tooManyRequests
        default: .badGateway
        }
    }

    func record(_ url: String, _ result: AuthorizationResult, asked: Bool) {
        var size: Int?
        if case .httpResponse(let response) = result { size = response.countedBytes }
        onExchange(Exchange(url: url, result: result.kind, responseBytes: size, askedForCredentials: asked))
    }
}
