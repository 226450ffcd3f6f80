/// SSOKit's one way to build a compact JWS (RFC 7515 §7.1): the protected header and the payload as compact JSON
/// (members sorted by name), each base64url-encoded, then the signature over `header.payload` from the caller's key.
///
/// `package`: the modules that sign (OIDC's client assertions, SSOKitRights' right keys) build through it; the key
/// stays with its owner, which signs only the signing input this builds.
package enum CompactJWS {
    /// The protected header SSOKit writes: `alg`, `kid` when given, and `typ` `JWT`.
    package static func header(algorithm: String, keyID: String?) -> JSONValue {
        var members: [String: JSONValue] = ["alg": .string(algorithm), "typ": .string("JWT")]
        if let keyID { members["kid"] = .string(keyID) }
        return .object(members)
    }

    /// `header.payload.signature`, where `sign` returns the JWS signature (RFC 7518 §3) of the ASCII signing input.
    package static func make<Failure: Error>(
        header: JSONValue, payload: JSONValue, sign: ([UInt8]) throws(Failure) -> [UInt8]
    ) throws(Failure) -> String {
        let signingInput = Base64URL.encode(header.jsonText.utf8) + "." + Base64URL.encode(payload.jsonText.utf8)
        return signingInput + "." + Base64URL.encode(try sign(Array(signingInput.utf8)))
    }
}
