import HTTPTypes

/// A `WWW-Authenticate` challenge with the Bearer scheme (RFC 6750 §3), found among the challenges of every
/// `WWW-Authenticate` field (RFC 9110 §11.6.1: several challenges may share one field).
struct BearerChallenge {
    /// Whether the server said the token it got is no good (`error="invalid_token"`, RFC 6750 §3.1).
    let tokenRejected: Bool

    /// The Bearer challenge in `headers`, or nil when none is there (another scheme, or no challenge).
    init?(_ headers: HTTPFields) {
        for field in headers where field.name == .wwwAuthenticate && field.value.utf8.count <= 8192 {
            var value = field.value
            let found = value.withUTF8 { Self.bearerParameters(in: $0) }
            if let found {
                tokenRejected = found
                return
            }
        }
        return nil
    }

    /// When a challenge in `bytes` is Bearer, whether its parameters say `invalid_token`; nil otherwise. Scheme
    /// names are found outside quoted strings: at the start or after a comma, as a token followed by a space or the
    /// end rather than by `=`.
    private static func bearerParameters(in bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        var index = 0
        var inQuotes = false
        var atItemStart = true
        while index < bytes.count {
            let byte = bytes[index]
            if inQuotes {
                if byte == UInt8(ascii: "\\") { index += 1 } else if byte == UInt8(ascii: "\"") { inQuotes = false }
                index += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inQuotes = true
                atItemStart = false
            case UInt8(ascii: ","):
                atItemStart = true
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                break
            default:
                guard atItemStart else { break }
                atItemStart = false
                var end = index
                while end < bytes.count, bytes[end] != UInt8(ascii: " "), bytes[end] != UInt8(ascii: ","),
                    bytes[end] != UInt8(ascii: "=")
                {
                    end += 1
                }
                if end - index == 6, end == bytes.count || bytes[end] != UInt8(ascii: "="),
                    zip(bytes[index..<end], "bearer".utf8).allSatisfy({ $0 | 0x20 == $1 })
                {
                    return contains(invalidToken, in: UnsafeBufferPointer(rebasing: bytes[end...]))
                }
                index = end
                continue
            }
            index += 1
        }
        return nil
    }

    private static let invalidToken = Array("invalid_token".utf8)

    private static func contains(_ needle: [UInt8], in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { start in
            needle.indices.allSatisfy { bytes[start + $0] == needle[$0] }
        }
    }
}
