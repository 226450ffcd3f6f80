import Foundation
import SSOKitCore

/// The HTTP-Redirect binding (SAML Bindings 2.0 §3.4): a message DEFLATE-compressed, base64-encoded and
/// URL-encoded into the query string, signed over the exact query bytes (§3.4.4.1).
public enum RedirectBinding {
    /// Which parameter carries the message.
    public enum Parameter: String, Sendable, Hashable {
        /// `SAMLRequest`.
        case request = "SAMLRequest"
        /// `SAMLResponse`.
        case response = "SAMLResponse"
    }

    /// A message read from a redirect-binding query.
    public struct Message: Sendable, Hashable {
        /// Which parameter carried it.
        public var parameter: Parameter
        /// The inflated XML.
        public var xml: [UInt8]
        /// The RelayState, if present.
        public var relayState: String?
        /// The signature algorithm, when the query was signed and the signature verified.
        public var signatureAlgorithm: SAMLSignatureAlgorithm?
        /// The root element's `ID`.
        public var id: String
        /// The root element's Issuer, if present.
        public var issuer: String?
        /// The root element's local name (e.g. `AuthnRequest`).
        public var messageName: String

        /// Reads the root of a decoded message: a SAML protocol element with an ID.
        init(
            parameter: Parameter, xml: [UInt8], relayState: String?, signatureAlgorithm: SAMLSignatureAlgorithm?,
            limits: XMLLimits
        ) throws(SAMLError) {
            let tree = try XMLTree.parse(xml, limits: limits)
            guard let root = tree.root, root.namespaceURI == "\(SAMLNamespace.protocolNS)",
                let id = root.attribute("ID"), !id.isEmpty
            else { throw SAMLError(.invalidMessage, "the message is not a SAML protocol message with an ID") }
            self.parameter = parameter
            self.xml = xml
            self.relayState = relayState
            self.signatureAlgorithm = signatureAlgorithm
            self.id = id
            self.issuer = root.firstChild("Issuer", in: SAMLNamespace.assertion)?.textContent
            self.messageName = root.localName
        }
    }

    /// RelayState is at most 80 bytes (Bindings §3.4.3).
    public static let maximumRelayStateBytes = 80

    /// The full URL that redirects the browser to `destination` with `xml`, signed when `signingKey` is given.
    public static func url(
        destination: String, parameter: Parameter = .request, xml: String, relayState: String? = nil,
        signingKey: SAMLPrivateKey? = nil, algorithm: SAMLSignatureAlgorithm? = nil
    ) throws(SAMLError) -> String {
        try SAMLURL.requireHTTP(destination, role: "destination")
        if let relayState, relayState.utf8.count > maximumRelayStateBytes {
            throw SAMLError(.relayStateTooLong, "RelayState is \(relayState.utf8.count) bytes; at most 80 are allowed")
        }
        let deflated = try RawDeflate.compress(Array(xml.utf8))
        var query = "\(parameter.rawValue)=\(FormURLEncoding.escape(SAMLBase64.encode(deflated), keeping: .unreserved))"
        if let relayState { query += "&RelayState=\(FormURLEncoding.escape(relayState, keeping: .unreserved))" }
        if let signingKey {
            let algorithm = algorithm ?? SAMLSignatureAlgorithm.default(for: signingKey)
            query += "&SigAlg=\(FormURLEncoding.escape(algorithm.uri, keeping: .unreserved))"
            let signature = try RawSignature.sign(Array(query.utf8), key: signingKey, algorithm: algorithm)
            query += "&Signature=\(FormURLEncoding.escape(SAMLBase64.encode(signature), keeping: .unreserved))"
        }
        return destination + (destination.contains("?") ? "&" : "?") + query
    }

    /// Decodes a redirect-binding query string (the part after `?`). With `signer`, the query must be signed by that
    /// certificate's key (RSA-SHA1 only with `insecureAllowSHA1`); without it, any signature is ignored.
    public static func decode(
        query: String, signer: SAMLCertificate?, insecureAllowSHA1: Bool = false, maximumInflatedBytes: Int = 1 << 20,
        limits: XMLLimits = XMLLimits()
    ) throws(SAMLError) -> Message {
        guard query.utf8.count <= 256 * 1024 else { throw SAMLError(.tooLarge, "the query string is too long") }
        var raw: [String: Substring] = [:]
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            guard raw[name] == nil else { throw SAMLError(.invalidMessage, "the parameter \(name) repeats") }
            raw[name] = parts.count > 1 ? parts[1] : ""
        }
        let parameter: Parameter
        switch (raw["SAMLRequest"], raw["SAMLResponse"]) {
        case (.some, nil): parameter = .request
        case (nil, .some): parameter = .response
        default: throw SAMLError(.invalidMessage, "the query must carry exactly one of SAMLRequest and SAMLResponse")
        }
        guard let encodedMessage = raw[parameter.rawValue], let message = FormURLEncoding.unescape(encodedMessage)
        else {
            throw SAMLError(.invalidEncoding, "the message parameter is not valid URL encoding")
        }
        var relayState: String?
        if let encodedRelayState = raw["RelayState"] {
            guard let decoded = FormURLEncoding.unescape(encodedRelayState) else {
                throw SAMLError(.invalidEncoding, "RelayState is not valid URL encoding")
            }
            guard decoded.utf8.count <= maximumRelayStateBytes else {
                throw SAMLError(.relayStateTooLong, "RelayState is \(decoded.utf8.count) bytes; at most 80 are allowed")
            }
            relayState = decoded
        }
        var verifiedAlgorithm: SAMLSignatureAlgorithm?
        if let signer {
            verifiedAlgorithm = try verifySignature(
                raw: raw, parameter: parameter, signer: signer, insecureAllowSHA1: insecureAllowSHA1)
        }
        let compressed = try SAMLBase64.decode(message, limit: maximumInflatedBytes)
        let xml = try RawDeflate.decompress(compressed, limit: maximumInflatedBytes)
        return try Message(
            parameter: parameter, xml: xml, relayState: relayState, signatureAlgorithm: verifiedAlgorithm,
            limits: limits)
    }

    /// Rebuilds the signed octets from the raw (still URL-encoded) values, in the order §3.4.4.1 fixes.
    private static func verifySignature(
        raw: [String: Substring], parameter: Parameter, signer: SAMLCertificate, insecureAllowSHA1: Bool
    ) throws(SAMLError) -> SAMLSignatureAlgorithm {
        guard let encodedAlgorithm = raw["SigAlg"], let encodedSignature = raw["Signature"],
            let algorithmURI = FormURLEncoding.unescape(encodedAlgorithm),
            let signatureText = FormURLEncoding.unescape(encodedSignature)
        else { throw SAMLError(.signatureMissing, "the query is not signed") }
        guard let algorithm = SAMLSignatureAlgorithm(rawValue: algorithmURI), algorithm != .rsaSHA1 || insecureAllowSHA1
        else {
            throw SAMLError(.unsupportedAlgorithm, "the signature algorithm \(algorithmURI) is not allowed")
        }
        let signature = try SAMLBase64.decode(signatureText, limit: 8192)
        var signed = "\(parameter.rawValue)=\(raw[parameter.rawValue] ?? "")"
        if let relayState = raw["RelayState"] { signed += "&RelayState=\(relayState)" }
        signed += "&SigAlg=\(encodedAlgorithm)"
        guard RawSignature.verify(signature, over: Array(signed.utf8), certificate: signer, algorithm: algorithm) else {
            throw SAMLError(.invalidSignature, "the query signature does not verify with the pinned certificate")
        }
        return algorithm
    }
}
