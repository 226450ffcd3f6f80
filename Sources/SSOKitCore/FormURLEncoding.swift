/// `application/x-www-form-urlencoded` encoding (WHATWG URL §5), used for token requests and query strings.
public enum FormURLEncoding {
    /// The bytes that ``escape(_:keeping:)`` leaves as they are: ALPHA and DIGIT always, and a set of symbols.
    public struct SafeSet: Sendable {
        private let symbols: [UInt8]

        /// WHATWG URL §5's `application/x-www-form-urlencoded` set: ALPHA / DIGIT / `*-._`.
        public static let form = SafeSet(symbols: Array("*-._".utf8))
        /// RFC 3986's unreserved set: ALPHA / DIGIT / `-._~`. SAML's redirect binding uses it, so that verifiers
        /// that re-encode the values before checking a signature (Python's `quote_plus`) rebuild the signed bytes.
        public static let unreserved = SafeSet(symbols: Array("-._~".utf8))

        func contains(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            default: symbols.contains(byte)
            }
        }
    }

    /// Percent-encodes one name or value: every byte outside `safe` is escaped and space becomes `+`.
    public static func escape(_ value: String, keeping safe: SafeSet = .form) -> String {
        var output = [UInt8]()
        output.reserveCapacity(value.utf8.count)
        for byte in value.utf8 {
            if safe.contains(byte) {
                output.append(byte)
            } else if byte == UInt8(ascii: " ") {
                output.append(UInt8(ascii: "+"))
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(hexDigit(byte >> 4))
                output.append(hexDigit(byte & 0x0F))
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Encodes pairs in order as `name=value&name=value`.
    public static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }

    /// Decodes `name=value&...` into ordered pairs; `nil` when a percent escape is malformed or not UTF-8.
    public static func decode(_ string: some StringProtocol) -> [(String, String)]? {
        var pairs: [(String, String)] = []
        for part in string.split(separator: "&", omittingEmptySubsequences: true) {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = unescape(pieces[0]) else { return nil }
            let value = pieces.count > 1 ? unescape(pieces[1]) : ""
            guard let value else { return nil }
            pairs.append((name, value))
        }
        return pairs
    }

    /// Reverses ``escape(_:keeping:)``: `+` becomes space and `%XX` its byte; `nil` on a malformed escape or bad UTF-8.
    public static func unescape(_ text: some StringProtocol) -> String? {
        var bytes = [UInt8]()
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
