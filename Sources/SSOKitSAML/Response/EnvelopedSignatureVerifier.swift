internal import CXMLSec
import Foundation

/// Verifies the one enveloped signature of a signed element with pinned keys only, and proves that the signature
/// covers that very element: the defence against XML signature wrapping.
struct EnvelopedSignatureVerifier {
    let certificates: [SAMLCertificate]
    let insecureAllowSHA1: Bool

    /// The element's own ds:Signature child, nil when it has none; several are refused.
    static func signature(of element: XMLElement) throws(SAMLError) -> XMLElement? {
        let signatures = element.singleChild("Signature", in: SAMLNamespace.dsig)
        guard signatures.count <= 1 else {
            throw SAMLError(.malformedSignature, "<\(element.localName)> carries \(signatures.count) signatures")
        }
        return signatures.first
    }

    /// Verifies `signature`, a child of `signed`, or throws.
    func verify(_ signature: XMLElement, of signed: XMLElement) throws(SAMLError) {
        // Built only when a check fails: the accepted path never formats a message.
        var context: String { "the <\(signed.localName)> signature" }
        guard !signature.containsCommentOrProcessingInstruction else {
            throw SAMLError(.malformedSignature, "\(context) contains a comment or processing instruction")
        }
        let signedInfos = signature.singleChild("SignedInfo", in: SAMLNamespace.dsig)
        guard signedInfos.count == 1, let signedInfo = signedInfos.first,
            signature.singleChild("SignatureValue", in: SAMLNamespace.dsig).count == 1
        else { throw SAMLError(.malformedSignature, "\(context) needs exactly one SignedInfo and SignatureValue") }
        let references = signedInfo.singleChild("Reference", in: SAMLNamespace.dsig)
        guard references.count == 1, let reference = references.first else {
            throw SAMLError(
                .malformedSignature, "\(context) has \(references.count) references; exactly one is allowed")
        }
        // Byte for byte: `String ==` would equate canonically equivalent IDs that the ID table keeps apart.
        guard let id = signed.attribute("ID"), !id.isEmpty, let uri = reference.attribute("URI"),
            uri.utf8.elementsEqual(("#" + id).utf8)
        else {
            throw SAMLError(.signatureWrapping, "\(context) does not reference the element it is attached to")
        }
        guard Self.isBareName(id) else {
            throw SAMLError(.signatureWrapping, "\(context) references its element by an ID that is not a bare name")
        }
        try checkAlgorithms(signedInfo: signedInfo, reference: reference, context: { context })
        try SignedInfoShape.check(signedInfo, reference: reference, context: { context })

        var lastStatus = SSOKIT_DSIG_INVALID
        for certificate in orderedCertificates(hintedBy: signature) {
            var referenceCount: Int32 = 0
            // On the stack: ssokit_dsig_verify writes the NUL-terminated URI of the reference it verified.
            let (status, verifiedURIMatches) = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 1100) {
                buffer in
                let status = ssokit_dsig_verify(
                    signature.node, certificate.publicKey.pointer, insecureAllowSHA1 ? 1 : 0, buffer.baseAddress,
                    buffer.count, &referenceCount)
                guard status == SSOKIT_DSIG_VALID, let start = buffer.baseAddress else { return (status, false) }
                let matches = start.withMemoryRebound(to: UInt8.self, capacity: buffer.count) {
                    UnsafeBufferPointer(start: $0, count: strlen(start)).elementsEqual(uri.utf8)
                }
                return (status, matches)
            }
            if status == SSOKIT_DSIG_VALID {
                guard referenceCount == 1, verifiedURIMatches else {
                    throw SAMLError(.signatureWrapping, "\(context) verified a reference other than its element")
                }
                return
            }
            lastStatus = status
        }
        if lastStatus == SSOKIT_DSIG_ERROR {
            throw SAMLError(.invalidSignature, "\(context) could not be verified with any pinned IdP certificate")
        }
        throw SAMLError(.invalidSignature, "\(context) does not verify with any pinned IdP certificate")
    }

    /// Whether `#` + `id` can only mean the element with that ID. xmlsec reads a fragment that begins with
    /// `xpointer(` or `xmlns(` as an XPointer expression, which may select any other element, and XPath's `id()`
    /// reads white space as a list of IDs. An xs:ID is an NCName, which holds neither `(` nor white space.
    static func isBareName(_ id: String) -> Bool {
        !id.utf8.contains { $0 == UInt8(ascii: "(") || $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    }

    private func checkAlgorithms(signedInfo: XMLElement, reference: XMLElement, context: () -> String)
        throws(SAMLError)
    {
        guard
            let c14n = signedInfo.firstChild("CanonicalizationMethod", in: SAMLNamespace.dsig)?.attribute("Algorithm"),
            let method = signedInfo.firstChild("SignatureMethod", in: SAMLNamespace.dsig)?.attribute("Algorithm"),
            let digest = reference.firstChild("DigestMethod", in: SAMLNamespace.dsig)?.attribute("Algorithm")
        else {
            throw SAMLError(.malformedSignature, "\(context()) lacks a canonicalization, signature or digest method")
        }
        guard c14n == SignatureAlgorithms.exclusiveC14N else {
            throw SAMLError(
                .unsupportedAlgorithm, "\(context()) uses canonicalization \(c14n); only exclusive C14N is allowed")
        }
        guard SignatureAlgorithms.signatureMethodAllowed(method, insecureAllowSHA1: insecureAllowSHA1) else {
            throw SAMLError(
                .unsupportedAlgorithm, "\(context()) uses the signature method \(method), which is not allowed")
        }
        guard SignatureAlgorithms.digestMethodAllowed(digest, insecureAllowSHA1: insecureAllowSHA1) else {
            throw SAMLError(.unsupportedAlgorithm, "\(context()) uses the digest \(digest), which is not allowed")
        }
        if let transforms = reference.firstChild("Transforms", in: SAMLNamespace.dsig) {
            for transform in transforms.children {
                let algorithm = transform.attribute("Algorithm") ?? ""
                guard transform.is("Transform", in: SAMLNamespace.dsig),
                    algorithm == SignatureAlgorithms.envelopedSignature
                        || algorithm == SignatureAlgorithms.exclusiveC14N
                else {
                    throw SAMLError(
                        .unsupportedAlgorithm, "\(context()) uses the transform \(algorithm), which is not allowed")
                }
            }
        }
    }

    /// The pinned certificates, with the one that KeyInfo names (if any) first. KeyInfo is only a hint for the
    /// order: a certificate there that is not pinned is never used.
    private func orderedCertificates(hintedBy signature: XMLElement) -> [SAMLCertificate] {
        guard certificates.count > 1,
            let hinted = signature.firstChild("KeyInfo", in: SAMLNamespace.dsig)?
                .firstChild("X509Data", in: SAMLNamespace.dsig)?
                .firstChild("X509Certificate", in: SAMLNamespace.dsig)?.textContent.filter({ !$0.isWhitespace }),
            let index = certificates.firstIndex(where: { $0.base64 == hinted })
        else { return certificates }
        var ordered = certificates
        ordered.swapAt(0, index)
        return ordered
    }
}
