/// The three segments of a compact JWS (RFC 7515 §7.1), located without copying the token.
struct JWSCompact {
    let header: Range<Int>
    let payload: Range<Int>
    let signature: Range<Int>

    /// Byte range of `header.payload`, the JWS signing input.
    var signingInput: Range<Int> { header.lowerBound..<payload.upperBound }

    init(_ bytes: UnsafeRawBufferPointer) throws(OIDCError) {
        var dots: (Int, Int) = (-1, -1)
        var count = 0
        for index in 0..<bytes.count where bytes[index] == UInt8(ascii: ".") {
            count += 1
            if count == 1 { dots.0 = index } else if count == 2 { dots.1 = index } else { break }
        }
        guard count == 2 else {
            throw OIDCError(.malformedToken, "a compact JWS has exactly three segments")
        }
        header = 0..<dots.0
        payload = (dots.0 + 1)..<dots.1
        signature = (dots.1 + 1)..<bytes.count
        guard !header.isEmpty, !payload.isEmpty else {
            throw OIDCError(.malformedToken, "the JWS header or payload segment is empty")
        }
    }
}
