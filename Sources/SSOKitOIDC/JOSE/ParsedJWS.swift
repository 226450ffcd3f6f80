import SSOKitCore

/// A compact JWS split and decoded, before any trust is placed in it.
struct ParsedJWS {
    let header: JWSHeader
    let signingInput: Range<Int>
    let signature: [UInt8]
    private let payload: [UInt8]

    init(_ bytes: UnsafeRawBufferPointer) throws(OIDCError) {
        let segments = try JWSCompact(bytes)
        guard let headerBytes = Base64URL.decode(UnsafeRawBufferPointer(rebasing: bytes[segments.header])),
            let payloadBytes = Base64URL.decode(UnsafeRawBufferPointer(rebasing: bytes[segments.payload])),
            let signatureBytes = Base64URL.decode(UnsafeRawBufferPointer(rebasing: bytes[segments.signature]))
        else {
            throw OIDCError(.malformedToken, "a JWS segment is not base64url")
        }
        let headerMembers: [JSONMember]?
        do {
            headerMembers = try headerBytes.withUnsafeBufferPointer { buffer throws(JSONParser.Failure) in
                try JSONParser().parseObjectMembers(buffer)
            }
        } catch {
            throw OIDCError(.malformedToken, "the JWS header is not valid JSON")
        }
        guard let headerMembers else { throw OIDCError(.malformedToken, "the JWS header is not a JSON object") }
        header = try JWSHeader(members: headerMembers)
        signingInput = segments.signingInput
        signature = signatureBytes
        payload = payloadBytes
    }

    /// The payload's members, in order, when it is a JSON object; called only after the signature verified.
    func payloadMembers() throws(OIDCError) -> [JSONMember] {
        let members = try? payload.withUnsafeBufferPointer { buffer throws(JSONParser.Failure) in
            try JSONParser().parseObjectMembers(buffer)
        }
        guard let members else {
            throw OIDCError(.malformedToken, "the JWS payload is not a JSON object")
        }
        return members
    }
}
