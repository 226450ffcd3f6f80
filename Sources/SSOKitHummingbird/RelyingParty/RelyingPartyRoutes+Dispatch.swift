import Hummingbird
import Logging

extension RelyingPartyRoutes {
    /// The answer of the route that `request`'s method and path name, or nil when it names none of them: for a host
    /// that routes by itself, such as a server whose routes are made before its port, and so its base URL, is known.
    public func respond(to request: Request, logger: Logger) async -> Response? {
        let paths = configuration.paths
        let path = request.uri.path
        switch request.method {
        case .get where path == paths.openIDConnectSignIn: return await openIDConnectSignIn(request, logger: logger)
        case .get where path == paths.openIDConnectCallback: return await openIDConnectCallback(request, logger: logger)
        case .get where path == paths.samlSignIn: return await samlSignIn(request, logger: logger)
        case .post where path == paths.samlAssertionConsumerService:
            return await samlAssertionConsumerService(request, logger: logger)
        case .post where path == paths.signOut: return await signOut(request)
        default: return nil
        }
    }
}
