import ArgumentParser

/// `ssokit profile`: configuration profiles with `com.apple.extensiblesso` payloads.
struct ProfileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile", abstract: "Extensible SSO configuration profiles.",
        subcommands: [ProfileCheckCommand.self])
}
