/// Who is on the other end of a connection to the app API, as the connection proves it (never as a request body
/// claims it): the OS's code signature has no equivalent on Linux, so the transport stands in for it.
public enum CallerIdentity: Sendable, Hashable, CustomStringConvertible {
    /// A local user on the Unix domain socket, by the uid the kernel reports for the peer (`SO_PEERCRED`).
    case localUser(uid: UInt32)
    /// A mutual-TLS client, by the SHA-256 of its certificate's DER, in lower-case hex.
    case clientCertificate(sha256: String)
    /// A plain TCP client on a loopback address (`ssokit serve --insecure-loopback`): any local process.
    case loopback

    /// `uid:1000`, `certificate:<hex>` or `loopback`: how logs and interaction bindings name the caller.
    public var description: String {
        switch self {
        case .localUser(let uid): "uid:\(uid)"
        case .clientCertificate(let digest): "certificate:\(digest)"
        case .loopback: "loopback"
        }
    }
}
