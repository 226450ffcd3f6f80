import SSOKitExtension

/// Which bundle identifiers each connection identity may act as: the Linux stand-in for the OS knowing a calling
/// app by its code signature. A request whose `app` the connection may not use gets 403 `app_not_permitted`.
///
/// Bundle identifiers are compared ignoring case, as the adapter compares them. An identity the registry does not
/// name may act as no app.
public struct CallerRegistry: Sendable {
    /// What one identity may do.
    public enum Grant: Sendable, Hashable {
        /// Act as any bundle identifier (a registry-less server's own user, or loopback without a registry).
        case anyApplication
        /// Act as these bundle identifiers only (kept lower-cased).
        case applications(Set<String>)
    }

    private var grants: [CallerIdentity: Grant]

    /// A registry that names nobody: every request is refused.
    public init() {
        grants = [:]
    }

    /// Gives `identity` the grant `grant` (replacing any earlier one). Identifiers are stored lower-cased.
    public mutating func grant(_ grant: Grant, to identity: CallerIdentity) {
        switch grant {
        case .anyApplication: grants[identity] = .anyApplication
        case .applications(let names): grants[identity] = .applications(Set(names.map { $0.lowercased() }))
        }
    }

    /// The grant of `identity`, nil when the registry does not name it.
    public func grant(for identity: CallerIdentity) -> Grant? {
        grants[identity]
    }

    /// Whether `identity` may act as `application`: false for an unidentified connection, an identity the
    /// registry does not name, or an identifier that is not a bundle identifier.
    public func permits(_ identity: CallerIdentity?, application: String) -> Bool {
        guard let identity, BundleIdentifier.isValid(application), let grant = grants[identity] else { return false }
        switch grant {
        case .anyApplication: return true
        case .applications(let names): return names.contains(application.lowercased())
        }
    }

    /// How many identities the registry names.
    public var count: Int { grants.count }
}
