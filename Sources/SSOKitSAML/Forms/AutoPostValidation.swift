import Foundation

/// The checks shared by ``AutoPostForm`` and ``AutoPostFormParser``. Reasons never quote the checked values.
enum AutoPostValidation {
    /// Longest RelayState the bindings allow, in bytes (SAML Bindings 2.0 §3.4.3, §3.5.3).
    static let maximumRelayStateBytes = 80

    /// Parses `action` and returns its components when it is an absolute `http` or `https` URL with a host.
    ///
    /// Before any parsing the string must be printable ASCII other than the backslash: browsers drop tabs and
    /// newlines inside URLs and trim leading spaces and control characters (so `"java\tscript:"` and
    /// `" javascript:"` would run script, CVE-2023-45683), and read a backslash as a slash where Foundation does
    /// not. User info is refused too: it has no place in a form target and only serves to disguise the host.
    static func actionComponents(_ action: String) throws(SAMLError) -> URLComponents {
        guard !action.isEmpty else {
            throw SAMLError(.invalidURL, "the form action is empty")
        }
        try checkCharacters(action)
        guard let components = URLComponents(string: action), let scheme = components.scheme?.lowercased() else {
            throw SAMLError(.invalidURL, "the form action is not an absolute URL")
        }
        guard scheme == "https" || scheme == "http" else {
            throw SAMLError(.invalidURL, "the form action's scheme is not http or https")
        }
        guard let host = components.encodedHost, !host.isEmpty else {
            throw SAMLError(.invalidURL, "the form action has no host")
        }
        guard components.user == nil, components.password == nil else {
            throw SAMLError(.invalidURL, "the form action holds user info")
        }
        return components
    }

    /// Refuses a URL with anything but printable ASCII other than the backslash.
    static func checkCharacters(_ url: String) throws(SAMLError) {
        let refused = url.utf8.contains { byte in
            byte <= 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\\")
        }
        guard !refused else {
            throw SAMLError(.invalidURL, "the form action holds whitespace, control, backslash or non-ASCII characters")
        }
    }

    /// The CSP source expression for the origin of a URL that ``actionComponents(_:)`` accepted: `scheme://host`
    /// with the port when one is given, or only `scheme:` when CSP cannot spell the host (an IPv6 literal or a
    /// percent-encoded name).
    static func originSource(of components: URLComponents) -> String {
        let scheme = components.scheme?.lowercased() ?? "https"
        guard let host = components.encodedHost?.lowercased(), !host.isEmpty,
            host.utf8.allSatisfy({ isASCIIAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") })
        else {
            return scheme + ":"
        }
        let port = components.port.map { ":\($0)" } ?? ""
        return "\(scheme)://\(host)\(port)"
    }

    /// Whether `text` is non-empty and uses only the base64 alphabet, `=` and, if allowed, CR and LF.
    static func isBase64Text(_ text: some Sequence<UInt8>, allowingLineBreaks: Bool) -> Bool {
        var isEmpty = true
        for byte in text {
            switch byte {
            case UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="):
                isEmpty = false
            case UInt8(ascii: "\r"), UInt8(ascii: "\n"):
                guard allowingLineBreaks else { return false }
            default:
                guard isASCIIAlphanumeric(byte) else { return false }
                isEmpty = false
            }
        }
        return !isEmpty
    }

    /// Whether `scalar` is a control character other than tab, LF and CR: attribute values cannot carry it (XML
    /// forbids it, HTML turns NUL into U+FFFD, and ``XMLEscaping`` drops it), so a value holding one would not be
    /// posted as given.
    static func isUnwritableControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r"
    }

    /// Whether `nonce` matches CSP's `base64-value`: base64 or base64url characters, then at most two `=`.
    static func isNonce(_ nonce: String) -> Bool {
        let bytes = Array(nonce.utf8)
        var end = bytes.count
        while end > 0, bytes.count - end < 2, bytes[end - 1] == UInt8(ascii: "=") {
            end -= 1
        }
        guard end > 0 else { return false }
        return bytes[..<end].allSatisfy { byte in
            isASCIIAlphanumeric(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }

    /// Whether `byte` is an ASCII letter or digit.
    static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return false
        }
    }
}
