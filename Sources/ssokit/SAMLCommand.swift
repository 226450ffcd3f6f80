import ArgumentParser

/// `ssokit saml`: service-provider operations (see CLI-CONTRACT.md).
struct SAMLCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "saml", abstract: "SAML 2.0 service-provider operations.",
        subcommands: [SAMLVerifyCommand.self, SAMLAuthnRequestCommand.self, SAMLMetadataCommand.self])
}
