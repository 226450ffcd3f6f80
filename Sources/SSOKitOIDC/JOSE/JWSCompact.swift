import Foundation

/// The three segments of a compact JWS (RFC 7515 §7.1), located without copying the token.
struct JWSCompact {
    let header: Range<Int>
    let payload: Range<Int>
    let signature: Range<Int>

    /// Byte range of `header.payload`, the JWS signing input.
    var signingInput: Range<Int> { header.lowerBound..<payload.upperBound }

    /// Finds the two dots. A further dot can only sit in the signature segment, whose base64url decoding
    /// refuses it, so the scan stops at the second dot. `memchr` does the scan: a byte-at-a-time search cost more
    /// than the rest of the split and decode together.
    init(_ bytes: UnsafeRawBufferPointer) throws(OIDCError) {
        guard let first = Self.firstDot(in: bytes, from: 0), let second = Self.firstDot(in: bytes, from: first + 1)
        else {
            throw OIDCError(.malformedToken, "a compact JWS has exactly three segments")
        }
        header = 0..<first
        payload = (first + 1)..<second
        signature = (second + 1)..<bytes.count
        guard !header.isEmpty, !payload.isEmpty else {
            throw OIDCError(.malformedToken, "the JWS header or payload segment is empty")
        }
    }

    /// The offset of the first `.` at or after `start`, if any.
    private static func firstDot(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard let base = bytes.baseAddress, start < bytes.count,
            let found = memchr(base + start, Int32(UInt8(ascii: ".")), bytes.count - start)
        else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }
}
