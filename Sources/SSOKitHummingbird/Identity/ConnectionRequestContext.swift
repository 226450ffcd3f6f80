import Hummingbird
import NIOCore

/// A request context that keeps the connection its request arrived on, so that the app API can ask the connection
/// who the caller is (``CallerIdentification/connection``).
public protocol ConnectionRequestContext: RequestContext {
    /// The request's connection: the accepted socket's channel when Hummingbird's `Application` serves it.
    var channel: any Channel { get }
}

/// The request context of `ssokit serve`'s app API: Hummingbird's basic context and the connection.
public struct AppAPIRequestContext: ConnectionRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let channel: any Channel

    /// The context of a request that `source`'s connection carried.
    public init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        channel = source.channel
    }

    /// The app API reads bodies itself, capped at ``AppAPI/maximumBodyBytes``.
    public var maxUploadSize: Int { AppAPI<Self>.maximumBodyBytes }
}
