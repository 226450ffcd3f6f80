import Foundation
import SSOKitCore

/// What a device authorization response may hold in the members that are shown to the user or opened in a
/// browser (RFC 8628 §3.2, §6.1): the provider's text reaches a terminal and a browser command line, so it is
/// held to the rules below before anyone sees it.
enum DeviceDisplayRules {
    /// The longest verification URI accepted, in bytes.
    static let maximumURIBytes = 2048
    /// The longest user code accepted, in characters.
    static let maximumUserCodeLength = 128

    /// A verification URI: printable ASCII only (no spaces, no terminal control sequences), an absolute https
    /// URL or http on a loopback host, so it never starts with `-` and cannot pass for a browser option.
    static func verificationURI(_ text: String, member: String) throws(OIDCError) -> String {
        guard text.utf8.count <= maximumURIBytes, text.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw OIDCError(.invalidTokenResponse, "\(member) holds characters that cannot be shown safely")
        }
        guard let url = URL(string: text), EndpointSecurity.isAllowed(url) else {
            throw OIDCError(.insecureURL, "\(member) must be an https URL (or http on a loopback host)")
        }
        return text
    }

    /// A user code: 1 to 128 characters, none of them a control, format (bidirectional overrides included) or
    /// line-separator character.
    static func userCode(_ text: String) throws(OIDCError) -> String {
        let hidden: Set<Unicode.GeneralCategory> = [.control, .format, .lineSeparator, .paragraphSeparator]
        guard (1...maximumUserCodeLength).contains(text.count),
            !text.unicodeScalars.contains(where: { hidden.contains($0.properties.generalCategory) })
        else {
            throw OIDCError(.invalidTokenResponse, "the user_code is empty, too long or cannot be shown safely")
        }
        return text
    }

    /// `expires_in`: a positive number of seconds, capped at `maximum` so that a provider cannot keep the client
    /// polling for days.
    static func lifetime(_ value: JSONValue?, maximum: TimeInterval) throws(OIDCError) -> TimeInterval {
        let seconds: Double
        switch value {
        case .integer(let whole)?: seconds = Double(whole)
        case .number(let real)?: seconds = real
        default: throw OIDCError(.invalidTokenResponse, "the device authorization response lacks expires_in")
        }
        guard seconds.isFinite, seconds > 0 else {
            throw OIDCError(.invalidTokenResponse, "the device authorization response's expires_in is not positive")
        }
        return min(seconds, maximum)
    }
}
