internal import CXMLSec

/// The shape a SignedInfo must have before xmlsec processes it: what bounds xmlsec's work on a signature that is not
/// yet known to be valid, and keeps xmlsec reading the same attributes as SSOKit.
///
/// xmlsec digests the Reference (running its Transforms) before it checks the SignatureValue, so anyone can make it
/// do that work, and its libxml2 walks are not bounded: each extra exclusive-C14N Transform re-parses and
/// re-canonicalises the signed element, and a long `InclusiveNamespaces` PrefixList is looked up once per prefix per
/// element. xmlsec also reads attributes with `xmlGetProp`, which takes the first attribute of that name in any
/// namespace, where SSOKit reads the one without a namespace.
enum SignedInfoShape {
    /// The most prefixes an `InclusiveNamespaces` PrefixList may name (IdPs list a handful: `xs`, `xsi`, `#default`).
    static let maximumInclusivePrefixes = 16
    /// The most Transforms a Reference may have: SAML signs with enveloped-signature then exclusive C14N.
    static let maximumTransforms = 2

    private static let exclusiveC14NNamespace: StaticString = "http://www.w3.org/2001/10/xml-exc-c14n#"

    /// Throws `malformed_signature` unless `signedInfo`, whose one Reference is `reference`, has the shape above.
    static func check(_ signedInfo: XMLElement, reference: XMLElement, context: () -> String) throws(SAMLError) {
        guard ssokit_node_has_namespaced_attribute(signedInfo.node) == 0 else {
            throw SAMLError(.malformedSignature, "\(context()) has an attribute in a namespace inside SignedInfo")
        }
        if let method = signedInfo.firstChild("CanonicalizationMethod", in: SAMLNamespace.dsig) {
            try checkParameters(of: method, context: context)
        }
        guard let transforms = reference.firstChild("Transforms", in: SAMLNamespace.dsig) else { return }
        var algorithms: [String] = []
        for transform in transforms.children {
            let algorithm = transform.attribute("Algorithm") ?? ""
            guard algorithms.count < maximumTransforms, !algorithms.contains(algorithm) else {
                throw SAMLError(
                    .malformedSignature,
                    "\(context()) has more than \(maximumTransforms) transforms, or one transform twice")
            }
            algorithms.append(algorithm)
            try checkParameters(of: transform, context: context)
        }
    }

    /// A transform or canonicalization method holds nothing, or one `InclusiveNamespaces` with a short PrefixList.
    private static func checkParameters(of method: XMLElement, context: () -> String) throws(SAMLError) {
        let parameters = method.children
        guard let only = parameters.first else { return }
        guard parameters.count == 1, only.is("InclusiveNamespaces", in: exclusiveC14NNamespace),
            !only.hasElementChildren
        else {
            throw SAMLError(.malformedSignature, "\(context()) has a transform parameter SSOKit does not accept")
        }
        let prefixList = only.attribute("PrefixList") ?? ""
        let prefixes = prefixList.utf8.split { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        guard prefixes.count <= maximumInclusivePrefixes else {
            throw SAMLError(
                .malformedSignature,
                "\(context()) lists more than \(maximumInclusivePrefixes) inclusive namespace prefixes")
        }
    }
}
