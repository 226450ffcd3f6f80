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
        let headerJSON: JSONValue
        do {
            headerJSON = try JSONParser().parse(headerBytes)
        } catch {
            throw OIDCError(.malformedToken, "the JWS header is not valid JSON")
        }
        header = try JWSHeader(json: headerJSON)
        signingInput = segments.signingInput
        signature = signatureBytes
        payload = payloadBytes
    }

    /// The payload as a JSON object; called only after the signature verified.
    func payloadObject() throws(OIDCError) -> [String: JSONValue] {
        guard let value = try? JSONParser().parse(payload), let object = value.objectValue else {
            throw OIDCError(.malformedToken, "the JWS payload is not a JSON object")
        }
        return object
    }
}
