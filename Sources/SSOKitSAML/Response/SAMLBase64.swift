import Foundation
import SSOKitCore

/// Base64 as the SAML bindings carry it: standard alphabet with padding; ASCII whitespace (line breaks) tolerated.
/// Decoding is Core's `StrictBase64` with a size limit on both sides.
enum SAMLBase64 {
    /// Decodes `text`, refusing anything but base64 and whitespace, misplaced padding, and output over `limit`
    /// bytes. One pass over the input, no intermediate copies.
    static func decode(_ text: String, limit: Int) throws(SAMLError) -> [UInt8] {
        var text = text
        let result = text.withUTF8 { input in
            Result { () throws(SAMLError) in try decode(UnsafeRawBufferPointer(input), limit: limit) }
        }
        return try result.get()
    }

    static func decode(_ input: UnsafeRawBufferPointer, limit: Int) throws(SAMLError) -> [UInt8] {
        guard input.count <= limit / 3 * 4 + limit / 16 + 1024 else {
            throw SAMLError(.tooLarge, "the encoded message is larger than the \(limit)-byte limit allows")
        }
        guard let output = StrictBase64.decode(input, options: .lineWrappedPadded), !output.isEmpty else {
            throw invalid
        }
        guard output.count <= limit else {
            throw SAMLError(.tooLarge, "the decoded message is \(output.count) bytes; the limit is \(limit)")
        }
        return output
    }

    /// Standard base64 with padding, on one line.
    static func encode(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }

    private static var invalid: SAMLError { SAMLError(.invalidEncoding, "the message is not valid base64") }
}
