/// The three segments of a compact JWS (RFC 7515 §7.1), located without copying the token.
struct JWSCompact {
    let header: Range<Int>
    let payload: Range<Int>
    let signature: Range<Int>

    /// Byte range of `header.payload`, the JWS signing input.
    var signingInput: Range<Int> { header.lowerBound..<payload.upperBound }

    /// Finds the two dots. A further dot can only sit in the signature segment, whose base64url decoding
    /// refuses it, so the scan stops at the second dot.
    init(_ bytes: UnsafeRawBufferPointer) throws(OIDCError) {
        guard let first = bytes.firstIndex(of: UInt8(ascii: ".")),
            let second = bytes[(first + 1)...].firstIndex(of: UInt8(ascii: "."))
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
}
