internal import CXMLSec
import Foundation

/// A parsed libxml2 document, owned by one call at a time and freed with it.
///
/// Parsing is hostile-input safe: no network, no DTD, no entity substitution, any DOCTYPE refused, size and depth
/// capped. The type is deliberately not `Sendable`: a document lives inside one verification.
final class XMLTree {
    let document: OpaquePointer
    /// ``scanForAssertions()``'s result, gathered while parsing when ``parse(_:limits:scanningFor:)`` was asked to.
    private let scanFromParse: ssokit_parse_scan?

    private init(document: OpaquePointer, scanFromParse: ssokit_parse_scan? = nil) {
        self.document = document
        self.scanFromParse = scanFromParse
    }

    deinit { ssokit_doc_free(document) }

    /// The root element (a parsed tree always has one: the parser refuses documents without it).
    var root: XMLElement? { ssokit_doc_root(document).map(XMLElement.init) }

    /// Parses `bytes` under `limits`. With `assertionNamespace`, the parser also registers every ID and finds the
    /// assertions as it builds the tree, for ``scanForAssertionsOnce()``.
    static func parse(
        _ bytes: [UInt8], limits: XMLLimits, scanningFor assertionNamespace: StaticString? = nil
    ) throws(SAMLError) -> XMLTree {
        guard bytes.count <= limits.maximumDocumentBytes else {
            throw SAMLError(
                .tooLarge, "the document is \(bytes.count) bytes; the limit is \(limits.maximumDocumentBytes)")
        }
        guard !bytes.isEmpty else { throw SAMLError(.malformedXML, "the document is empty") }
        guard ssokit_xmlsec_initialize() == 0 else {
            throw SAMLError(.malformedXML, "libxml2/xmlsec could not be initialised")
        }
        var status = SSOKIT_PARSE_MALFORMED
        var scan = ssokit_parse_scan()
        var caps = limits.parseLimits
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                ssokit_xml_parse_scanning(
                    chars.baseAddress, Int32(chars.count), &caps, assertionNamespace?.cString, &status, &scan)
            }
        }
        guard let document, status == SSOKIT_PARSE_OK else {
            switch status {
            case SSOKIT_PARSE_DOCTYPE:
                throw SAMLError(.doctypeForbidden, "the document has a DOCTYPE; DTDs and entities are refused")
            case SSOKIT_PARSE_TOO_DEEP:
                throw SAMLError(.nestingTooDeep, "elements nest deeper than \(limits.maximumDepth)")
            case SSOKIT_PARSE_TOO_COMPLEX:
                throw SAMLError(
                    .tooLarge,
                    "an element carries more than \(limits.maximumAttributesPerElement) attributes, or more than "
                        + "\(limits.maximumNamespaceDeclarationsInScope) namespace declarations are in scope")
            default:
                throw SAMLError(.malformedXML, "the document is not well-formed XML")
            }
        }
        return XMLTree(document: document, scanFromParse: assertionNamespace == nil ? nil : scan)
    }

    /// Whether the tree as it is now passes one of `limits` (the parse enforced them; a decrypted assertion joins
    /// the tree through xmlsec's parser, which did not).
    func exceeds(_ limits: XMLLimits) -> Bool {
        var caps = limits.parseLimits
        return ssokit_doc_exceeds(document, &caps) != 0
    }

    /// Registers every `ID` attribute so that same-document references resolve; throws when IDs repeat.
    func registerIDs() throws(SAMLError) {
        guard let root else { throw SAMLError(.malformedXML, "the document has no root element") }
        guard ssokit_register_ids(document, root.node) == 0 else {
            throw SAMLError(.signatureWrapping, "two elements share one ID")
        }
    }

    /// Registers IDs (throwing when they repeat) and finds the elements named Assertion or EncryptedAssertion in
    /// the SAML assertion namespace, in one walk: how many, the first, and whether any is not a child of the root.
    func scanForAssertions() throws(SAMLError) -> (count: Int, first: XMLElement?, misplaced: Bool) {
        guard let root else { throw SAMLError(.malformedXML, "the document has no root element") }
        var count: Int32 = 0
        var first: OpaquePointer?
        var misplaced: Int32 = 0
        guard
            ssokit_scan_document(document, root.node, SAMLNamespace.assertion.cString, &count, &first, &misplaced) == 0
        else {
            throw SAMLError(.signatureWrapping, "two elements share one ID")
        }
        return (Int(count), first.map(XMLElement.init), misplaced != 0)
    }

    /// ``scanForAssertions()`` for the tree as parsed: the parser's own scan when it made one (the tree has not
    /// changed since; call this only before anything modifies it), otherwise a walk.
    func scanForAssertionsOnce() throws(SAMLError) -> (count: Int, first: XMLElement?, misplaced: Bool) {
        guard let scan = scanFromParse, scan.complete != 0 else { return try scanForAssertions() }
        guard root != nil else { throw SAMLError(.malformedXML, "the document has no root element") }
        guard scan.result == 0 else { throw SAMLError(.signatureWrapping, "two elements share one ID") }
        return (Int(scan.count), scan.first.map(XMLElement.init), scan.misplaced != 0)
    }

    /// Serialises the whole document as UTF-8 XML.
    func serialized() -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        guard ssokit_xml_serialize(document, &output, &length) == 0, let output else { return [] }
        defer { free(output) }
        return Array(UnsafeBufferPointer(start: output, count: length))
    }
}

extension XMLLimits {
    /// The limits as the C shim takes them.
    var parseLimits: ssokit_parse_limits {
        ssokit_parse_limits(
            max_depth: Int32(clamping: maximumDepth), max_attributes: Int32(clamping: maximumAttributesPerElement),
            max_namespaces: Int32(clamping: maximumNamespaceDeclarationsInScope))
    }
}
