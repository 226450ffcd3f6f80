/// The HTTP-POST binding (SAML Bindings 2.0 §3.5): a base64 message in an auto-posting HTML form, signed (when
/// signed) by an enveloped XML signature inside the message.
public enum PostBinding {
    /// The base64 `SAMLRequest` value for `request`, with an enveloped signature when `signingKey` is given.
    public static func encode(
        _ request: AuthnRequest, signingKey: SAMLPrivateKey?, algorithm: SAMLSignatureAlgorithm? = nil
    ) throws(SAMLError) -> String {
        guard let signingKey else { return SAMLBase64.encode(Array(request.xml.utf8)) }
        return SAMLBase64.encode(try EnvelopedSigner.sign(request.xml, key: signingKey, algorithm: algorithm))
    }

    /// The auto-post page that sends `request` to its destination.
    public static func form(
        _ request: AuthnRequest, relayState: String? = nil, signingKey: SAMLPrivateKey?,
        algorithm: SAMLSignatureAlgorithm? = nil, scriptNonce: String? = nil
    ) throws(SAMLError) -> AutoPostForm {
        guard let destination = request.destination else {
            throw SAMLError(.invalidURL, "the request has no Destination to post to")
        }
        return try AutoPostForm(
            action: destination, kind: .request,
            message: encode(request, signingKey: signingKey, algorithm: algorithm), relayState: relayState,
            scriptNonce: scriptNonce)
    }

    /// Reads a message as the HTTP-POST binding carries it (the base64 value of `SAMLRequest` or `SAMLResponse`)
    /// without checking any signature: its root's ID, Issuer and name, for a caller that only needs to know which
    /// request it is (the adapter, to bind the Response to an intercepted AuthnRequest).
    public static func decode(
        _ message: String, parameter: RedirectBinding.Parameter = .request, relayState: String? = nil,
        limits: XMLLimits = XMLLimits()
    ) throws(SAMLError) -> RedirectBinding.Message {
        let xml = try SAMLBase64.decode(message, limit: limits.maximumDocumentBytes)
        return try RedirectBinding.Message(
            parameter: parameter, xml: xml, relayState: relayState, signatureAlgorithm: nil, limits: limits)
    }
}
