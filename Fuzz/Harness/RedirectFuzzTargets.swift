import Foundation
import SSOKitConformance
import SSOKitCore
import SSOKitSAML

extension FuzzTarget {
    /// An HTTP-Redirect binding query string: parameter splitting, URL decoding, RelayState, the query signature
    /// (SigAlg, base64 Signature, the signed octets rebuilt from the raw values), base64, inflate with its cap, and
    /// the inflated message. Decoded twice: without a signer (the signature is ignored) and with `keys/sp.crt`.
    public static let redirectQuery = FuzzTarget(
        name: "redirect-query",
        summary: "RedirectBinding.decode on query strings, unsigned and with a pinned signer",
        body: .sync { input in
            redirectSigner.run { signer in
                let query = String(decoding: input, as: UTF8.self)
                return FuzzVerdict.combining(
                    [nil, signer].map { signer in
                        FuzzVerdict.saml { () throws(SAMLError) in
                            _ = try RedirectBinding.decode(query: query, signer: signer)
                        }
                    })
            }
        },
        seeds: {
            var seeds: [String: [UInt8]] = [:]
            for fixture in try FuzzFixtures.cases("saml/cases") {
                if let query = fixture.string("query") { seeds[fixture.name] = Array(query.utf8) }
            }
            return seeds
        })

    /// Raw DEFLATE data (RFC 1951) as a redirect-binding message: inflate with the 1 MiB cap, then the message
    /// checks. The harness base64- and URL-encodes the input into `SAMLRequest=…`.
    public static let redirectInflate = FuzzTarget(
        name: "redirect-inflate",
        summary: "RedirectBinding.decode on raw DEFLATE streams: inflate with its cap, then the message",
        body: .sync { input in
            let query = "SAMLRequest=" + FormURLEncoding.escape(Data(input).base64EncodedString())
            return FuzzVerdict.saml { () throws(SAMLError) in
                _ = try RedirectBinding.decode(query: query, signer: nil)
            }
        },
        seeds: {
            // The DEFLATE data of every fixture query, and of every fixture Response as RedirectBinding writes it.
            var seeds: [String: [UInt8]] = [:]
            for fixture in try FuzzFixtures.cases("saml/cases") {
                if let query = fixture.string("query"), let deflated = RedirectMessage.deflated(inQuery: query) {
                    seeds[fixture.name] = deflated
                }
            }
            for (name, bytes) in try FuzzFixtures.files(in: "saml/responses") where name.hasSuffix(".xml") {
                let url = try RedirectBinding.url(
                    destination: "https://idp.example.com/saml/sso/redirect", parameter: .response,
                    xml: String(decoding: bytes, as: UTF8.self))
                if let deflated = RedirectMessage.deflated(inQuery: url) { seeds[name] = deflated }
            }
            return seeds
        })

    private static let redirectSigner = FuzzSetup { try FuzzFixtures.samlCertificate("sp") }
}

/// The DEFLATE bytes a redirect-binding query (or URL) carries, for seeds.
private enum RedirectMessage {
    static func deflated(inQuery query: String) -> [UInt8]? {
        let afterQuestionMark = query.split(separator: "?", maxSplits: 1).last ?? Substring(query)
        guard let pairs = FormURLEncoding.decode(afterQuestionMark),
            let message = pairs.first(where: { $0.0 == "SAMLRequest" || $0.0 == "SAMLResponse" })?.1,
            let data = Data(base64Encoded: message)
        else { return nil }
        return Array(data)
    }
}
