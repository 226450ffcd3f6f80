import HTTPTypes
import Hummingbird
import NIOCore
import SSOKitCore
import SSOKitOIDC
import Synchronization

/// The endpoints once the server knows its URL; until then (between binding and the first `onServerRunning`
/// call), requests get a 503.
final class EndpointsSlot: Sendable {
    private let slot = Mutex<DevIdPEndpoints?>(nil)

    var current: DevIdPEndpoints? { slot.withLock { $0 } }

    func fill(_ endpoints: DevIdPEndpoints) { slot.withLock { $0 = endpoints } }
}

/// The Hummingbird routes of the IdP: each collects the body (at most 64 KiB), turns the request into an
/// ``EndpointRequest`` and the endpoint's answer into a response.
enum DevIdPRouter {
    static let maximumBody = 64 * 1024

    typealias Handler = @Sendable (DevIdPEndpoints, EndpointRequest) async -> EndpointResponse

    static func make(_ slot: EndpointsSlot, log: (@Sendable (String) -> Void)?) -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        if let log { router.add(middleware: RequestLogMiddleware(log: log)) }
        typealias Path = SiteURLs.Path
        let routes: [(HTTPRequest.Method, String, Handler)] = [
            (.get, Path.discovery, { endpoints, _ in endpoints.discovery() }),
            (.get, Path.jwks, { endpoints, _ in endpoints.jwks() }),
            (.get, Path.authorization, { await $0.authorize($1) }),
            (.post, Path.authorization, { await $0.authorize($1) }),
            (.post, Path.login, { await $0.login($1) }),
            (.post, Path.token, { await $0.token($1) }),
            (.get, Path.userInfo, { await $0.userInfo($1) }),
            (.post, Path.userInfo, { await $0.userInfo($1) }),
            (.post, Path.revocation, { await $0.revoke($1) }),
            (.get, Path.endSession, { await $0.endSession($1) }),
            (.post, Path.endSession, { await $0.endSession($1) }),
            (.post, Path.confirmLogout, { await $0.confirmLogout($1) }),
            (.get, Path.samlMetadata, { endpoints, _ in endpoints.samlMetadata() }),
            (.get, Path.samlSingleSignOn, { await $0.samlSingleSignOn($1) }),
            (.post, Path.samlSingleSignOn, { await $0.samlSingleSignOn($1) }),
            (.get, Path.samlSingleLogout, { await $0.samlSingleLogout($1) }),
            (.post, Path.samlSingleLogout, { await $0.samlSingleLogout($1) }),
            (.get, Path.health, { _, _ in .json(["status": .string("ok")]) }),
        ]
        for (method, path, handler) in routes {
            router.on(RouterPath(path), method: method) { request, _ in
                var request = request
                let body = try await request.collectBody(upTo: maximumBody)
                guard let endpoints = slot.current else { return Response(status: .serviceUnavailable) }
                let answer = await handler(
                    endpoints,
                    EndpointRequest(
                        method: request.method, path: request.uri.path, query: request.uri.query,
                        headers: request.headers, body: Array(buffer: body)))
                return Response(
                    status: answer.status, headers: answer.headers,
                    body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
            }
        }
        return router
    }
}
