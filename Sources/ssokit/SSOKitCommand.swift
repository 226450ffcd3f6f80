import ArgumentParser

/// `ssokit`: the sample IdP login tool and conformance runner (see CLI-CONTRACT.md).
@main
struct SSOKitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ssokit",
        abstract:
            "Log in to OpenID Connect providers, verify tokens and SAML responses, and run SSOKit's conformance fixtures.",
        subcommands: [
            OIDCCommand.self, SAMLCommand.self, ProfileCommand.self, AuthorizeCommand.self, ConformanceCommand.self,
            CacheCommand.self, RightsCommand.self, ServeCommand.self, DevIdPCommand.self, DemoCommand.self,
        ])
}

struct OIDCCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "oidc", abstract: "OpenID Connect relying-party operations.",
        subcommands: [VerifyIDTokenCommand.self, LoginCommand.self, RefreshCommand.self, LogoutCommand.self])
}
