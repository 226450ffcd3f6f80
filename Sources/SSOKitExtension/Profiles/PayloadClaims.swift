/// What a payload claims that must be unique across every payload of every loaded profile: its identifier, its URL
/// prefixes and its hosts.
struct PayloadClaims {
    /// The payload's name in problems.
    let name: String
    let identifier: String?
    let urls: [RedirectURLPrefix]
    let hosts: [CredentialHost]

    init(name: String, identifier: String?, urls: [RedirectURLPrefix], hosts: [CredentialHost]) {
        self.name = name
        self.identifier = identifier
        self.urls = urls
        self.hosts = hosts
    }

    init(_ payload: SSOPayload) {
        self.init(name: payload.identifier, identifier: payload.identifier, urls: payload.urls, hosts: payload.hosts)
    }

    /// One problem for each claim already made by an earlier payload (or earlier in the same payload).
    static func duplicates(among claims: [PayloadClaims]) -> [ProfileProblem] {
        var owners: [Claim: String] = [:]
        var problems: [ProfileProblem] = []
        for payload in claims {
            let made =
                (payload.identifier.map { [Claim(kind: .identifier, value: $0, written: $0)] } ?? [])
                + payload.urls.map { Claim(kind: .url, value: "\($0.origin)\($0.path)", written: $0.url) }
                + payload.hosts.map { Claim(kind: .host, value: $0.name, written: $0.entry) }
            for claim in made {
                if let owner = owners[claim] {
                    problems.append(claim.problem(payload: payload.name, owner: owner))
                } else {
                    owners[claim] = payload.name
                }
            }
        }
        return problems
    }

    /// One thing a payload claims; equal claims compare by kind and normalized value.
    private struct Claim: Hashable {
        enum Kind { case identifier, url, host }
        let kind: Kind
        let value: String
        let written: String

        static func == (lhs: Claim, rhs: Claim) -> Bool { lhs.kind == rhs.kind && lhs.value == rhs.value }
        func hash(into hasher: inout Hasher) {
            hasher.combine(kind)
            hasher.combine(value)
        }

        func problem(payload: String, owner: String) -> ProfileProblem {
            switch kind {
            case .identifier:
                ProfileProblem(
                    payload: payload, key: "PayloadIdentifier", code: .duplicatePayloadIdentifier,
                    message: "another payload has the PayloadIdentifier \(written)")
            case .url:
                ProfileProblem(
                    payload: payload, key: "URLs", code: .duplicateURL,
                    message: "\(written) is already a URL prefix of payload \(owner)")
            case .host:
                ProfileProblem(
                    payload: payload, key: "Hosts", code: .duplicateHost,
                    message: "\(written) is already a host of payload \(owner)")
            }
        }
    }
}
