import Hummingbird
import SSOKitCore

/// Lets a request from a signed-in browser through with its user in ``SignedInRequestContext/signedInUser``, and
/// sends any other to sign in: a GET or HEAD is redirected to the sign-in route with `return_to` set to the page it
/// asked for; other methods get 401, since a form post cannot be replayed after a sign-in.
///
/// Make one with ``RelyingPartyRoutes/signInRequired(with:)``.
public struct SignInRequiredMiddleware<Context: SignedInRequestContext>: RouterMiddleware {
    let sessions: SignedInSessions
    let signInPath: String

    /// Checks the session; see the type's description.
    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let user = await sessions.user(for: request) else {
            guard request.method == .get || request.method == .head else {
                return RelyingPartyPages.error(.signInRequired)
            }
            let query = request.uri.query.map { "?" + $0 } ?? ""
            let target = ReturnPath.validated(request.uri.path + query)
            return RelyingPartyPages.redirect(
                to: signInPath + "?" + FormURLEncoding.encode([("return_to", target)]))
        }
        var context = context
        context.signedInUser = user
        return try await next(request, context)
    }
}
