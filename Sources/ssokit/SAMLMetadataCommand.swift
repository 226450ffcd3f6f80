import ArgumentParser
import SSOKitSAML

/// `ssokit saml metadata`: prints this SP's metadata XML.
struct SAMLMetadataCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "metadata", abstract: "Print SP metadata (EntityDescriptor) for an IdP.")

    @Option(help: "This SP's entity ID.")
    var spEntityId: String

    @Option(help: "This SP's ACS URL (HTTP-POST).")
    var acsUrl: String

    @Option(help: "PEM certificate of the key that signs AuthnRequests.")
    var signCert: String?

    @Option(help: "PEM certificate IdPs encrypt assertions to.")
    var encryptCert: String?

    func run() async throws {
        try await CLIOutput.run {
            let metadata = try ServiceProviderMetadata(
                entityID: spEntityId, assertionConsumerServiceURL: acsUrl,
                signingCertificate: try signCert.map { try SAMLCertificate(pem: SAMLFileInput.text($0)) },
                encryptionCertificate: try encryptCert.map { try SAMLCertificate(pem: SAMLFileInput.text($0)) })
            print(metadata.xml, terminator: "")
        }
    }
}
