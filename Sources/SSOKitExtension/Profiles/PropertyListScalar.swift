import Foundation
import SSOKitCore
import SSOKitSAML

/// The text of a property list's `<integer>`, `<real>`, `<date>` and `<data>` elements, read as their values.
///
/// Each accepts the one form Apple's tools and `plistlib` write (surrounding white space aside, for the numbers):
/// anything else is a ``ProfileError/Code-swift.struct/malformedProfile`` that does not repeat the text.
enum PropertyListScalar {
    /// A decimal integer with an optional sign that fits in 64 bits.
    static func integer(_ text: String) throws(ProfileError) -> Int64 {
        var digits = trimmed(text)
        var negative = false
        if let sign = digits.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty else { throw refusal("an <integer> without digits") }
        var value: Int64 = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0") && digit <= UInt8(ascii: "9") else {
                throw refusal("an <integer> that is not a decimal number")
            }
            let step = Int64(digit - UInt8(ascii: "0"))
            let (shifted, overflowShift) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowAdd) =
                negative ? shifted.subtractingReportingOverflow(step) : shifted.addingReportingOverflow(step)
            guard !overflowShift && !overflowAdd else { throw refusal("an <integer> outside 64 bits") }
            value = next
        }
        return value
    }

    /// A finite decimal number (`1`, `-2.5`, `6.02e23`).
    static func real(_ text: String) throws(ProfileError) -> Double {
        let number = trimmed(text)
        let allowed = number.allSatisfy { byte in
            (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: "-")
        }
        guard allowed, let value = Double(String(decoding: number, as: UTF8.self)), value.isFinite else {
            throw refusal("a <real> that is not a finite decimal number")
        }
        return value
    }

    /// An instant written `YYYY-MM-DDThh:mm:ssZ`, as a property list's `<date>` always is.
    static func date(_ text: String) throws(ProfileError) -> Date {
        let shape = Array("dddd-dd-ddTdd:dd:ddZ".utf8)
        let bytes = Array(text.utf8)
        let matches =
            bytes.count == shape.count
            && zip(bytes, shape).allSatisfy { byte, expected in
                expected == UInt8(ascii: "d")
                    ? (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) : byte == expected
            }
        guard matches, let date = SAMLDateTime.parse(text) else {
            throw refusal("a <date> that is not a valid YYYY-MM-DDThh:mm:ssZ instant")
        }
        return date
    }

    /// The bytes padded base64 (RFC 4648 §4, white space between symbols allowed) encodes.
    static func data(_ text: String) throws(ProfileError) -> [UInt8] {
        var text = text
        let bytes = text.withUTF8 { StrictBase64.decode(UnsafeRawBufferPointer($0), options: .lineWrappedPadded) }
        guard let bytes else { throw refusal("<data> that is not padded base64") }
        return bytes
    }

    /// The bytes of `text` without the XML white space (space, tab, CR, LF) at either end. Bytes, not Characters:
    /// a digit followed by a long run of combining marks is one Character, and walking such text by Characters
    /// from the end takes time quadratic in its length.
    private static func trimmed(_ text: String) -> ArraySlice<UInt8> {
        let bytes = Array(text.utf8)
        guard let first = bytes.firstIndex(where: { !XMLCursor.isSpace($0) }),
            let last = bytes.lastIndex(where: { !XMLCursor.isSpace($0) })
        else { return [] }
        return bytes[first...last]
    }

    private static func refusal(_ reason: String) -> ProfileError {
        ProfileError(.malformedProfile, "the XML property list holds \(reason)")
    }
}
