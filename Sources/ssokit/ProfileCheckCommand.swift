import ArgumentParser
import Foundation
import SSOKitCore
import SSOKitExtension
import SSOKitOIDC

/// `ssokit profile check --profile FILE [--trust PEM_FILE] [--associated-domains] [URL]` (CLI-CONTRACT.md).
struct ProfileCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a profile; with a URL, say whether and by which extension it is handled.")

    @Option(
        help: "The profile: a .mobileconfig (XML property list, signed or not) or JSON {\"PayloadContent\": [...]}.")
    var profile: String
    @Option(help: "A PEM file of trust anchors: a signed profile's signer must chain to one of them.")
    var trust: String?
    @Flag(
        name: .customLong("associated-domains"),
        help: "Check that each Redirect host's apple-app-site-association lists TEAMID.ExtensionIdentifier (authsrv).")
    var associatedDomains = false
    @Option(help: "Fix the clock (ISO 8601 or Unix seconds) for certificate validity and metadata.")
    var now: TimeArgument?
    @Argument(help: "A URL to match against the profile.")
    var url: String?

    func validate() throws {
        if let url, URL(string: url)?.scheme == nil { throw ValidationError("\(url) is not an absolute URL") }
    }

    func run() async throws {
        try await CLIOutput.run {
            let anchors = try trust.map { try ProfileTrustAnchors(pem: SAMLFileInput.text($0)) }
            let loader = ProfileLoader(
                trustAnchors: anchors, fileReader: LocalProfileFiles(), clock: TimeArgument.clock(now))
            let file = URL(fileURLWithPath: profile)
            // One byte over the cap is enough for the loader to refuse the file as too large.
            let bytes = try SAMLFileInput.bytes(profile, limit: loader.limits.maximumProfileBytes + 1)
            let loaded = try loader.load(bytes, directory: file.deletingLastPathComponent().path)
            let catalog = try ProfileCatalog(loaded)
            var domains: [AssociatedDomainsCheck.Result] = []
            if associatedDomains {
                domains = try await HTTPSession.with {
                    await AssociatedDomainsCheck(transport: $0).check(catalog.payloads)
                }
                let problems = domains.compactMap(\.problem)
                if !problems.isEmpty {
                    throw ProfileError(
                        .associatedDomainsMismatch, "a Redirect host does not associate the extension",
                        problems: problems)
                }
            }
            if let url, let parsed = URL(string: url) {
                CLIOutput.success(ProfileSummary.match(catalog.match(parsed)))
            } else {
                CLIOutput.success(ProfileSummary.profile(loaded, associatedDomains: associatedDomains ? domains : nil))
            }
        }
    }
}
