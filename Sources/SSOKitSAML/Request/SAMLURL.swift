import Foundation

/// The URL rule for every endpoint SSOKitSAML sends a browser to: absolute http or https with a host.
enum SAMLURL {
    static func requireHTTP(_ text: String, role: String) throws(SAMLError) {
        guard isHTTP(text) else { throw SAMLError(.invalidURL, "the \(role) must be an absolute http(s) URL") }
    }

    static func isHTTP(_ text: String) -> Bool {
        guard !text.isEmpty, text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F }),
            let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "https" || scheme == "http", let host = components.host, !host.isEmpty
        else { return false }
        return true
    }
}
