import SSOKitCore

extension IDTokenClaims {
    /// The claims of an ID token that was verified when it was issued and has been kept since where it could not be
    /// altered (sealed in a token cache, say): the payload is read; the signature is not checked again.
    ///
    /// Never call this on a token that was not verified first. Throws `malformed_token` when the token is not a
    /// compact JWS with a JSON object payload, and what ``init(_:)`` throws for its claims.
    public init(previouslyVerified token: String) throws(OIDCError) {
        var token = token
        let members: [JSONMember]
        do {
            members = try token.withUTF8 { utf8 in try ParsedJWS(UnsafeRawBufferPointer(utf8)).payloadMembers() }
        } catch let error as OIDCError {
            throw error
        } catch {
            throw OIDCError(.malformedToken, "the stored ID token could not be read")
        }
        try self.init(members: members)
    }
}
