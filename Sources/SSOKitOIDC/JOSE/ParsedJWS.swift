import SSOKitCore

/// A compact JWS split and decoded, before any trust is placed in it.
struct ParsedJWS {
    let header: JWSHeader
    let signingInput: Range<Int>
    /// The three segments decoded into one allocation, one after another.
    private let decoded: [UInt8]
    private let payloadRange: Range<Int>
    private let signatureRange: Range<Int>

    /// The signature's bytes.
    var signature: ArraySlice<UInt8> { decoded[signatureRange] }

    /// Splits and decodes `bytes`. With a `headerCache`, a header segment it holds is neither decoded nor parsed
    /// (the result is the same), and a header parsed here is offered to it.
    init(_ bytes: UnsafeRawBufferPointer, headerCache: JWSHeaderCache? = nil) throws(OIDCError) {
        let segments = try JWSCompact(bytes)
        let headerSegment = UnsafeRawBufferPointer(rebasing: bytes[segments.header])
        let cachedHeader = headerCache?.header(for: headerSegment)
        let decodesHeader = cachedHeader == nil
        // One allocation for the segments decoded (each decodes into the room after the one before).
        let capacity =
            (decodesHeader ? Base64URL.decodedCapacity(segments.header.count) : 0)
            + Base64URL.decodedCapacity(segments.payload.count) + Base64URL.decodedCapacity(segments.signature.count)
        var headerEnd = 0
        var payloadEnd = 0
        var valid = true
        decoded = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            var written = 0
            func append(_ segment: Range<Int>) -> Int? {
                let room = UnsafeMutableBufferPointer(rebasing: buffer[written...])
                guard let count = Base64URL.decode(UnsafeRawBufferPointer(rebasing: bytes[segment]), into: room) else {
                    return nil
                }
                written += count
                return written
            }
            let header = decodesHeader ? append(segments.header) : 0
            guard let header, let payload = append(segments.payload), append(segments.signature) != nil else {
                valid = false
                initialized = 0
                return
            }
            headerEnd = header
            payloadEnd = payload
            initialized = written
        }
        guard valid else { throw OIDCError(.malformedToken, "a JWS segment is not base64url") }
        payloadRange = headerEnd..<payloadEnd
        signatureRange = payloadEnd..<decoded.count
        signingInput = segments.signingInput
        if let cachedHeader {
            header = cachedHeader
            return
        }
        let headerMembers: [JSONMember]?
        do {
            headerMembers = try decoded.withUnsafeBufferPointer { buffer throws(JSONParser.Failure) in
                try JSONParser().parseObjectMembers(UnsafeBufferPointer(rebasing: buffer[0..<headerEnd]))
            }
        } catch {
            throw OIDCError(.malformedToken, "the JWS header is not valid JSON")
        }
        guard let headerMembers else { throw OIDCError(.malformedToken, "the JWS header is not a JSON object") }
        header = try JWSHeader(members: headerMembers)
        headerCache?.remember(header, for: headerSegment)
    }

    /// The payload's members, in order, when it is a JSON object; called only after the signature verified.
    func payloadMembers() throws(OIDCError) -> [JSONMember] {
        let members = try? decoded.withUnsafeBufferPointer { buffer throws(JSONParser.Failure) in
            try JSONParser().parseObjectMembers(UnsafeBufferPointer(rebasing: buffer[payloadRange]))
        }
        guard let members else {
            throw OIDCError(.malformedToken, "the JWS payload is not a JSON object")
        }
        return members
    }
}
