import Foundation

extension SSOPayload {
    /// Reads and validates one `com.apple.extensiblesso` payload dictionary, logging one problem per broken rule.
    /// The claims (identifier, URL prefixes, hosts) are returned even when other keys are broken, so that duplicates
    /// are reported in the same pass.
    static func read(
        _ values: [String: ProfileValue], index: Int, files: ProfileFileContext, now: Date, log: ProblemLog
    ) -> (payload: SSOPayload?, claims: PayloadClaims) {
        let identifier = values["PayloadIdentifier"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        let fields = PayloadFields(
            values: values, payload: identifier ?? "PayloadContent[\(index)]", keyPrefix: "", log: log)
        let before = log.problems.count
        _ = fields.string("PayloadIdentifier", required: true)
        let uuid = fields.string("PayloadUUID")
        if let uuid, UUID(uuidString: uuid) == nil {
            fields.problem("PayloadUUID", .invalidValue, "PayloadUUID \"\(uuid)\" is not a UUID")
        }
        let extensionIdentifier = fields.string("ExtensionIdentifier", required: true)
        let team = fields.string("TeamIdentifier")
        if let team, !isTeamIdentifier(team) {
            fields.problem("TeamIdentifier", .invalidValue, "TeamIdentifier must be 10 upper-case letters or digits")
        }
        let type: SSOPayloadType? = fields.oneOf("Type", required: true)
        let urls = type == .redirect ? urlPrefixes(fields) : []
        let hosts = type == .credential ? credentialHosts(fields) : []
        let realm = fields.string("Realm")
        let denied = fields.strings("DeniedBundleIdentifiers") ?? []
        let screenLocked: ScreenLockedBehavior? = fields.oneOf("ScreenLockedBehavior")
        let extensionData = fields.dictionary("ExtensionData", required: true)
        let configuration = extensionData.flatMap {
            ExtensionConfiguration.read(
                fields.nested($0, keyPrefix: "ExtensionData."), type: type, denied: denied, files: files, now: now)
        }
        let claims = PayloadClaims(name: fields.payload, identifier: identifier, urls: urls, hosts: hosts)
        guard log.problems.count == before, let identifier, let extensionIdentifier, let type, let extensionData,
            let configuration
        else { return (nil, claims) }
        let payload = SSOPayload(
            identifier: identifier, uuid: uuid, extensionIdentifier: extensionIdentifier, teamIdentifier: team,
            type: type, urls: urls, hosts: hosts, realm: realm, deniedBundleIdentifiers: denied,
            screenLockedBehavior: screenLocked ?? .cancel, extensionData: extensionData, configuration: configuration,
            dictionary: values)
        return (payload, claims)
    }

    private static func urlPrefixes(_ fields: PayloadFields) -> [RedirectURLPrefix] {
        guard let entries = fields.strings("URLs", required: true) else { return [] }
        var prefixes: [RedirectURLPrefix] = []
        for entry in entries {
            do {
                prefixes.append(try RedirectURLPrefix(entry))
            } catch {
                fields.problem("URLs", error.code, error.message)
            }
        }
        return prefixes
    }

    private static func credentialHosts(_ fields: PayloadFields) -> [CredentialHost] {
        guard let entries = fields.strings("Hosts", required: true) else { return [] }
        var hosts: [CredentialHost] = []
        for entry in entries {
            guard let host = CredentialHost(entry) else {
                fields.problem("Hosts", .invalidHost, "\"\(entry)\" is not a host name or a leading-dot domain suffix")
                continue
            }
            hosts.append(host)
        }
        return hosts
    }

    /// An Apple team identifier: 10 upper-case ASCII letters or digits.
    private static func isTeamIdentifier(_ text: String) -> Bool {
        text.utf8.count == 10
            && text.utf8.allSatisfy {
                ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z"))
                    || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
            }
    }
}
