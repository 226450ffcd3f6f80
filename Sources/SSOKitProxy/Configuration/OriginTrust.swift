import X509

/// The certificates the proxy trusts when it talks TLS to an origin on the browser's behalf (for an intercepted
/// host's requests that the interceptor passes on or that fall outside every prefix).
public struct OriginTrust: Sendable {
    enum Roots: Sendable {
        case system
        case certificates([Certificate])
    }

    let roots: Roots

    /// The operating system's trust store.
    public static let system = OriginTrust(roots: .system)

    /// Only these certificate authorities (a test origin's, or an enterprise's).
    public static func certificates(_ certificates: [Certificate]) -> OriginTrust {
        OriginTrust(roots: .certificates(certificates))
    }
}
