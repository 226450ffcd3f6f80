internal import CXMLSec
import Foundation

/// Raw DEFLATE (RFC 1951) as the HTTP-Redirect binding uses it (Bindings §3.4.4.1), via zlib.
enum RawDeflate {
    static func compress(_ input: [UInt8]) throws(SAMLError) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status = input.withUnsafeBufferPointer { ssokit_deflate_raw($0.baseAddress, $0.count, &output, &length) }
        guard status == 0, let output else { throw SAMLError(.invalidEncoding, "the message could not be compressed") }
        defer { free(output) }
        return Array(UnsafeBufferPointer(start: output, count: length))
    }

    /// Inflates with a hard cap on the output (the DEFLATE-bomb class, CVE-2023-28119).
    static func decompress(_ input: [UInt8], limit: Int) throws(SAMLError) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status = input.withUnsafeBufferPointer {
            ssokit_inflate_raw($0.baseAddress, $0.count, limit, &output, &length)
        }
        switch status {
        case 0:
            guard let output else { return [] }
            defer { free(output) }
            return Array(UnsafeBufferPointer(start: output, count: length))
        case 1:
            throw SAMLError(.tooLarge, "the message inflates to more than \(limit) bytes")
        default:
            throw SAMLError(.invalidEncoding, "the message is not valid DEFLATE data")
        }
    }
}
