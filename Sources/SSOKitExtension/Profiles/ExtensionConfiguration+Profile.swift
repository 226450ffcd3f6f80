import Foundation

extension ExtensionConfiguration {
    /// Reads a payload's ExtensionData; nil when a problem was logged.
    static func read(
        _ fields: PayloadFields, type: SSOPayloadType?, denied: [String], files: ProfileFileContext, now: Date
    ) -> ExtensionConfiguration? {
        let before = fields.log.problems.count
        let identityProvider: IdentityProviderConfiguration?
        switch fields.string("protocol", required: true) {
        case "oidc":
            identityProvider = OIDCProviderConfiguration.read(fields, files: files).map { .oidc($0) }
        case "saml":
            if type == .credential {
                fields.problem(
                    "protocol", .invalidValue,
                    "a Credential payload answers Bearer challenges, which needs protocol oidc")
            }
            identityProvider = SAMLProviderConfiguration.read(fields, files: files, now: now).map { .saml($0) }
        case let other?:
            fields.problem("protocol", .unknownProtocol, "protocol is \"\(other)\"; it must be oidc or saml")
            identityProvider = nil
        case nil:
            identityProvider = nil
        }
        let allowed = fields.strings("AppAllowList", separator: ",") ?? []
        let prefixes = fields.strings("AppPrefixAllowList", separator: ",") ?? []
        let blocked = fields.strings("AppBlockList", separator: ",") ?? []
        let right = fields.string("token_right")
        guard fields.log.problems.count == before, let identityProvider else { return nil }
        return ExtensionConfiguration(
            identityProvider: identityProvider,
            applications: ApplicationAccessPolicy(
                allowed: Set(allowed), allowedPrefixes: prefixes, blocked: Set(blocked).union(denied)),
            tokenRight: right)
    }
}
