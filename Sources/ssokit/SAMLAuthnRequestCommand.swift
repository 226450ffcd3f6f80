import ArgumentParser
import Foundation
import SSOKitCore
import SSOKitOIDC
import SSOKitSAML

/// `ssokit saml authn-request`: prints a redirect URL or an auto-post form carrying a new AuthnRequest.
struct SAMLAuthnRequestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "authn-request", abstract: "Create an AuthnRequest: a redirect URL or an auto-post form.")

    enum BindingChoice: String, ExpressibleByArgument, CaseIterable { case redirect, post }

    @Option(help: "The IdP's SSO URL.")
    var idpSsoUrl: String?

    @Option(help: "The IdP's metadata; its SSO URL for the chosen binding is used.")
    var idpMetadata: String?

    @Option(help: "This SP's entity ID (the Issuer).")
    var spEntityId: String

    @Option(help: "This SP's ACS URL.")
    var acsUrl: String

    @Option(help: "redirect (default) or post.")
    var binding: BindingChoice = .redirect

    @Option(help: "RelayState, at most 80 bytes.")
    var relayState: String?

    @Option(help: "PEM private key that signs the request.")
    var signKey: String?

    @Option(help: "PEM certificate of the signing key.")
    var signCert: String?

    @Flag(help: "Ask the IdP to authenticate afresh.")
    var forceAuthn = false

    @Flag(help: "Ask the IdP not to interact with the user.")
    var passive = false

    @Option(help: "Fix the clock (IssueInstant): ISO 8601 or Unix seconds.")
    var now: TimeArgument?

    @Flag(help: "Print {\"request_id\", \"url\" or \"form\", \"relay_state\"} as JSON instead.")
    var json = false

    func validate() throws {
        guard (idpSsoUrl == nil) != (idpMetadata == nil) else {
            throw ValidationError("give exactly one of --idp-sso-url and --idp-metadata")
        }
        guard (signKey == nil) == (signCert == nil) else {
            throw ValidationError("--sign-key and --sign-cert go together")
        }
    }

    func run() async throws {
        try await CLIOutput.run {
            let clock = TimeArgument.clock(now)
            let bindingURI = binding == .redirect ? AuthnRequest.Binding.redirect : AuthnRequest.Binding.post
            let destination: String
            if let idpSsoUrl {
                destination = idpSsoUrl
            } else if let idpMetadata {
                let metadata = try SAMLFileInput.metadata(idpMetadata, now: clock.now)
                guard let url = metadata.singleSignOnURL(binding: bindingURI) else {
                    throw SAMLError(.invalidMetadata, "the IdP has no SingleSignOnService for the \(binding) binding")
                }
                destination = url
            } else {
                throw ValidationError("give --idp-sso-url or --idp-metadata")
            }
            let key = try signKey.map { path in
                try SAMLPrivateKey(
                    pem: SAMLFileInput.text(path), certificatePEM: try signCert.map { try SAMLFileInput.text($0) })
            }
            let request = try AuthnRequestBuilder(
                serviceProviderEntityID: spEntityId, assertionConsumerServiceURL: acsUrl, clock: clock
            ).build(destination: destination, forceAuthn: forceAuthn, isPassive: passive)
            let output: String
            switch binding {
            case .redirect:
                output = try RedirectBinding.url(
                    destination: destination, xml: request.xml, relayState: relayState, signingKey: key)
            case .post:
                output = try PostBinding.form(request, relayState: relayState, signingKey: key).html
            }
            if json {
                CLIOutput.success([
                    "request_id": .string(request.id), (binding == .redirect ? "url" : "form"): .string(output),
                    "relay_state": relayState.map { .string($0) } ?? .null,
                ])
            } else {
                print(output)
            }
        }
    }
}
