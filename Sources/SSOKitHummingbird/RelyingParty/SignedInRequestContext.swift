import Hummingbird

/// A request context that carries the signed-in user once ``SignInRequiredMiddleware`` let the request through.
public protocol SignedInRequestContext: RequestContext {
    /// The user, set by ``SignInRequiredMiddleware``; nil before it runs.
    var signedInUser: SignedInUser? { get set }
}

/// The basic request context with a signed-in user.
public struct SignedInUserRequestContext: SignedInRequestContext {
    /// Hummingbird's per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// The user, set by ``SignInRequiredMiddleware``.
    public var signedInUser: SignedInUser?

    /// Creates the context of a new request.
    public init(source: Source) {
        self.coreContext = .init(source: source)
        self.signedInUser = nil
    }
}
