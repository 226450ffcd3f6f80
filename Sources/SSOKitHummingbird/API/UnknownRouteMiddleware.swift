import HTTPTypes
import Hummingbird

/// Answers what matches no route with the API's JSON refusal instead of an empty body: 405 `method_not_allowed`
/// (with `Allow`) for a known path with another method, 404 `not_found` for any other path.
struct UnknownRouteMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Each path of the API and its one method; `*` stands for one path segment.
    static var routes: [(path: [Substring], method: HTTPRequest.Method)] {
        [
            (["v1", "authorize"], .post), (["v1", "interactions", "*"], .post), (["healthz"], .get),
            (["proxy.pac"], .get), (["metrics"], .get),
        ]
    }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let segments = request.uri.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            let allowed = Self.routes.first { route in
                route.path.count == segments.count
                    && zip(route.path, segments).allSatisfy { $0 == "*" ? !$1.isEmpty : $0 == $1 }
            }
            guard let allowed else {
                return AppAPIError(.notFound, "not_found", "no such route").response
            }
            var response = AppAPIError(
                .methodNotAllowed, "method_not_allowed", "this route takes \(allowed.method.rawValue) only"
            ).response
            response.headers[.allow] = allowed.method.rawValue
            return response
        }
    }
}
