import Foundation

/// How a URL a client sends is compared with the ones it registered (RFC 6749 §3.1.2.3: simple string comparison),
/// with the one exception RFC 8252 §7.3 makes for native apps: an `http` URL on a loopback IP literal that was
/// registered without a port matches the same URL with any port.
enum RegisteredURLMatching {
    /// Whether `candidate` matches one of `registered`.
    static func matches(_ candidate: String, anyOf registered: [String]) -> Bool {
        registered.contains { matches(candidate, registered: $0) }
    }

    static func matches(_ candidate: String, registered: String) -> Bool {
        if candidate == registered { return true }
        guard isAnyPortPattern(registered), var actual = URLComponents(string: candidate), actual.scheme == "http",
            actual.host == URLComponents(string: registered)?.host, actual.port != nil, actual.user == nil,
            actual.password == nil
        else { return false }
        actual.port = nil
        return actual.string == registered
    }

    /// Whether `registered` is an `http` URL on a loopback IP literal without a port: it stands for every port, so
    /// it is not itself a place to send anything.
    static func isAnyPortPattern(_ registered: String) -> Bool {
        guard let pattern = URLComponents(string: registered), pattern.port == nil, pattern.scheme == "http",
            let host = pattern.host
        else { return false }
        return isLoopbackLiteral(host)
    }

    /// 127.0.0.1 or ::1 as URLComponents gives them (RFC 8252 §8.3 advises against `localhost`).
    private static func isLoopbackLiteral(_ host: String) -> Bool {
        host == "127.0.0.1" || host == "[::1]" || host == "::1"
    }
}
