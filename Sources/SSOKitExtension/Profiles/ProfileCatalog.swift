import Foundation

/// Every payload of the loaded profiles, checked for uniqueness across them, with indexes for matching requests as
/// the OS does (see ``ProfileCatalog/match(_:)``).
public struct ProfileCatalog: Sendable {
    /// The profiles, in the order given.
    public let profiles: [SSOProfile]
    /// Every payload of every profile, in order.
    public let payloads: [SSOPayload]
    /// Redirect prefixes by normalized host, longest path first (scheme and port are compared per rule).
    let redirectRules: [String: [RedirectRule]]
    /// Credential hosts and suffixes.
    let hostIndex: CredentialHostIndex
    private let indexByIdentifier: [String: Int]

    /// Indexes the payloads of `profiles`. Throws ``ProfileError/Code-swift.struct/invalidProfile`` when a
    /// PayloadIdentifier, URL prefix or host appears in more than one payload.
    public init(profiles: [SSOProfile]) throws(ProfileError) {
        let payloads = profiles.flatMap(\.payloads)
        let duplicates = PayloadClaims.duplicates(among: payloads.map(PayloadClaims.init))
        guard duplicates.isEmpty else { throw ProfileError.invalid(duplicates) }
        var redirectRules: [String: [RedirectRule]] = [:]
        var hostRules: [HostRule] = []
        var indexByIdentifier: [String: Int] = [:]
        for (index, payload) in payloads.enumerated() {
            indexByIdentifier[payload.identifier] = index
            for prefix in payload.urls {
                redirectRules[prefix.origin.host, default: []].append(RedirectRule(prefix: prefix, payloadIndex: index))
            }
            hostRules += payload.hosts.map { HostRule(host: $0, payloadIndex: index) }
        }
        for host in redirectRules.keys {
            redirectRules[host]?.sort { $0.prefix.path.utf8.count > $1.prefix.path.utf8.count }
        }
        self.profiles = profiles
        self.payloads = payloads
        self.redirectRules = redirectRules
        self.hostIndex = CredentialHostIndex(hostRules)
        self.indexByIdentifier = indexByIdentifier
    }

    /// Indexes one profile.
    public init(_ profile: SSOProfile) throws(ProfileError) {
        try self.init(profiles: [profile])
    }

    /// The payload with `identifier`.
    public func payload(identifier: String) -> SSOPayload? {
        indexByIdentifier[identifier].map { payloads[$0] }
    }

    struct RedirectRule: Sendable {
        let prefix: RedirectURLPrefix
        let payloadIndex: Int
    }

    struct HostRule: Sendable {
        let host: CredentialHost
        let payloadIndex: Int
    }
}
