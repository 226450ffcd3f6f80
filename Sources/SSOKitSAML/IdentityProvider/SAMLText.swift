/// The SAML module's text encodings, for the code in this package that writes SAML messages and HTML pages of its
/// own (`ssokit dev-idp`): the same escaping and base64 that SSOKitSAML uses for what it writes and reads.
package enum SAMLText {
    /// Escapes a value for XML or HTML text or a double-quoted attribute (see `XMLEscaping`).
    package static func escape(_ value: String) -> String { XMLEscaping.escape(value) }

    /// Decodes a binding's base64 value (whitespace tolerated) to at most `limit` bytes.
    package static func decodeBase64(_ text: String, limit: Int) throws(SAMLError) -> [UInt8] {
        try SAMLBase64.decode(text, limit: limit)
    }

    /// Standard base64 with padding, on one line, as the HTTP-POST binding carries messages.
    package static func encodeBase64(_ bytes: [UInt8]) -> String { SAMLBase64.encode(bytes) }
}
