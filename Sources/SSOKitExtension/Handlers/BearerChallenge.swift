import HTTPTypes

/// A `WWW-Authenticate` challenge with the Bearer scheme (RFC 6750 §3), found among the challenges of every
/// `WWW-Authenticate` field (RFC 9110 §11.6.1: several challenges may share one field).
struct BearerChallenge {
    /// Whether the server said the token it got is no good (`error="invalid_token"`).
    let tokenRejected: Bool

    /// The Bearer challenge in `headers`, or nil when none is there (another scheme, or no challenge).
    init?(_ headers: HTTPFields) {
        for value in headers[values: .wwwAuthenticate] where value.utf8.count <= 8192 {
            if let parameters = Self.bearerParameters(value) {
                tokenRejected =
                    parameters.contains("error=\"invalid_token\"") || parameters.contains("error=invalid_token")
                return
            }
        }
        return nil
    }

    /// The text after the Bearer scheme up to the next challenge, when a challenge in `value` is Bearer. Scheme
    /// names are found outside quoted strings: at the start, or after a comma, as a token followed by a space or
    /// the end rather than by `=`.
    private static func bearerParameters(_ value: String) -> String? {
        let bytes = Array(value.utf8)
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
                if atItemStart {
                    atItemStart = false
                    var end = index
                    while end < bytes.count, bytes[end] != UInt8(ascii: " "), bytes[end] != UInt8(ascii: ","),
                        bytes[end] != UInt8(ascii: "=")
                    {
                        end += 1
                    }
                    let followedByEquals = end < bytes.count && bytes[end] == UInt8(ascii: "=")
                    let token = String(decoding: bytes[index..<end], as: UTF8.self).lowercased()
                    if token == "bearer" && !followedByEquals {
                        return String(decoding: bytes[end...], as: UTF8.self).lowercased()
                    }
                    index = end
                    continue
                }
            }
            index += 1
        }
        return nil
    }
}
