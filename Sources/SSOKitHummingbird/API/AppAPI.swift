import Hummingbird
import SSOKitCore
import SSOKitExtension
import SSOKitOIDC
import SSOKitProxy

/// The app API of `ssokit serve` as routes mountable in any Hummingbird router (CLI-CONTRACT.md):
///
/// - `POST /v1/authorize`: an `AuthorizationRequest` as JSON → 200 with the object
///   `ssokit authorize` prints (`AuthorizationResult.jsonText`; a `failure` result is a 200 too);
/// - `POST /v1/interactions/{id}`: the answer to a pending interaction → the same object;
/// - `GET /healthz` → `{"status": "ok"}`; `GET /proxy.pac` → the PAC file, when a proxy runs;
/// - `GET /metrics` → the metrics exposition (``AppAPIMetrics``), when the host gives one.
///
/// Who calls is proven by the connection (``CallerIdentification``), never by the body: the ``CallerRegistry``
/// decides which bundle IDs the caller may act as (else 403 `app_not_permitted`, and no token), and only the caller
/// that started an interaction may resume it. `configurationRemoved` is the system's operation, not an app's: it is
/// refused (403 `operation_not_permitted`); the host performs it itself when a reload drops a payload
/// (``AdapterSlot/replace(with:)``). Bodies are capped at ``maximumBodyBytes`` (413); malformed input is a 400; every
/// refusal is `{"error", "message"}` (``AppAPIError``), never a 5xx and never a token.
///
/// ```swift
/// let router = Router(context: AppAPIRequestContext.self)
/// AppAPI(adapter: AdapterSlot(adapter), registry: registry, owners: InteractionOwners(cache: cache),
///        identification: .connection).addRoutes(to: router)
/// ```
public struct AppAPI<Context: RequestContext>: Sendable {
    /// The body cap, in bytes (64 KiB).
    public static var maximumBodyBytes: Int { 64 * 1024 }

    let slot: AdapterSlot
    let registry: CallerRegistry
    let owners: InteractionOwners
    let identification: CallerIdentification<Context>
    let autoConfig: @Sendable () -> ProxyAutoConfig?
    let metrics: AppAPIMetrics
    let exposition: (@Sendable () -> String)?

    /// Routes over the adapter in `adapter`; callers identified by `identification` and checked against
    /// `registry`; interactions bound to their callers in `owners`; `autoConfig` gives the PAC file of a running
    /// proxy (nil: 404 `proxy_not_running`); requests are counted into `metrics`, and `exposition` gives the text
    /// of `GET /metrics` (Prometheus's, say; nil: 404 `metrics_not_exposed`).
    public init(
        adapter: AdapterSlot, registry: CallerRegistry, owners: InteractionOwners,
        identification: CallerIdentification<Context>, autoConfig: @escaping @Sendable () -> ProxyAutoConfig? = { nil },
        metrics: AppAPIMetrics = AppAPIMetrics(), exposition: (@Sendable () -> String)? = nil
    ) {
        slot = adapter
        self.registry = registry
        self.owners = owners
        self.identification = identification
        self.autoConfig = autoConfig
        self.metrics = metrics
        self.exposition = exposition
    }

    /// Adds the routes to `router` (a router or a group), and a middleware that answers an unknown path (404
    /// `not_found`) or method (405 `method_not_allowed`) with the JSON refusal.
    public func addRoutes(to router: some RouterMethods<Context>) {
        _ = router.add(middleware: UnknownRouteMiddleware<Context>())
        router.post("/v1/authorize") { request, context in await authorize(request, context) }
        router.post("/v1/interactions/{id}") { request, context in await resume(request, context) }
        router.get("/healthz") { _, _ in JSONResponse.make(.object(["status": .string("ok")])) }
        router.get("/proxy.pac") { _, _ in proxyAutoConfig() }
        router.get("/metrics") { _, _ in metricsExposition() }
    }

    /// The body, at most ``maximumBodyBytes``.
    func body(of request: Request) async throws(AppAPIError) -> [UInt8] {
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > Self.maximumBodyBytes {
            throw AppAPIError.tooLarge(Self.maximumBodyBytes)
        }
        var bytes: [UInt8] = []
        do {
            for try await buffer in request.body {
                guard bytes.count + buffer.readableBytes <= Self.maximumBodyBytes else {
                    throw AppAPIError.tooLarge(Self.maximumBodyBytes)
                }
                bytes += buffer.readableBytesView
            }
        } catch let error as AppAPIError {
            throw error
        } catch {
            throw AppAPIError.bodyUnreadable
        }
        return bytes
    }

    private func metricsExposition() -> Response {
        guard let exposition else {
            return AppAPIError(.notFound, "metrics_not_exposed", "this server exposes no metrics").response
        }
        return Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: exposition())))
    }

    private func proxyAutoConfig() -> Response {
        guard let autoConfig = autoConfig() else {
            return AppAPIError(.notFound, "proxy_not_running", "no intercepting proxy runs (ssokit serve --proxy-port)")
                .response
        }
        return Response(
            status: .ok, headers: [.contentType: ProxyAutoConfig.contentType, .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: autoConfig.script)))
    }
}
