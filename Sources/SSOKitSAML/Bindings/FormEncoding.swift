/// URL encoding for binding parameters: every byte outside the RFC 3986 unreserved set percent-encoded, and a
/// space as `+` (form encoding). Verifiers that re-encode the values before checking a redirect signature (pysaml2,
/// python3-saml: Python's `quote_plus`) then rebuild the same bytes as were signed.
enum FormEncoding {
    static func encode(_ value: String) -> String {
        var result = ""
        result.reserveCapacity(value.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in value.utf8 {
            switch byte {
            case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2D, 0x2E, 0x5F, 0x7E:
                result.unicodeScalars.append(Unicode.Scalar(byte))
            case 0x20:
                result.unicodeScalars.append("+")
            default:
                result.unicodeScalars.append("%")
                result.unicodeScalars.append(Unicode.Scalar(hex[Int(byte >> 4)]))
                result.unicodeScalars.append(Unicode.Scalar(hex[Int(byte & 0x0F)]))
            }
        }
        return result
    }

    /// Percent-decodes (and `+` as space); nil on a malformed escape or invalid UTF-8.
    static func decode(_ value: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.utf8.count)
        var iterator = value.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case 0x25:
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            case 0x2B: bytes.append(0x20)
            default: bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x37
        case 0x61...0x66: byte - 0x57
        default: nil
        }
    }
}
