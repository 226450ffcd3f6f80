import Foundation

/// Base64 as the SAML bindings carry it: standard alphabet with padding; ASCII whitespace (line breaks) tolerated.
enum SAMLBase64 {
    /// Decodes `text`, refusing anything but base64 and whitespace, and refusing output over `limit` bytes.
    static func decode(_ text: String, limit: Int) throws(SAMLError) -> [UInt8] {
        guard text.utf8.count <= limit / 3 * 4 + limit / 16 + 1024 else {
            throw SAMLError(.tooLarge, "the encoded message is larger than the \(limit)-byte limit allows")
        }
        var compact: [UInt8] = []
        compact.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D: continue
            case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2B, 0x2F, 0x3D: compact.append(byte)
            default: throw SAMLError(.invalidEncoding, "the message is not valid base64")
            }
        }
        guard !compact.isEmpty, let data = Data(base64Encoded: Data(compact)) else {
            throw SAMLError(.invalidEncoding, "the message is not valid base64")
        }
        guard data.count <= limit else {
            throw SAMLError(.tooLarge, "the decoded message is \(data.count) bytes; the limit is \(limit)")
        }
        return Array(data)
    }

    /// Standard base64 with padding, on one line.
    static func encode(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }
}
