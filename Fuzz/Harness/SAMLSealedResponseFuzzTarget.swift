import CFuzzHarness
import Foundation
import SSOKitSAML

extension FuzzTarget {
    /// Response verification past the signatures. The first byte chooses what the harness does to the XML that
    /// follows and how the SP is configured:
    /// - bits 0-3: FUZZ_SAML_* layout: sign the Assertion (1), sign the Response (2), encrypt the Assertion (4),
    ///   with AES-256-GCM instead of AES-128-CBC (8); signed with `keys/idp-ec.key`, encrypted to `keys/sp.crt`;
    /// - bit 4: unsolicited instead of answering `_ssokit-req-0001`;
    /// - bits 5-6: the signature policy (`assertion_covered`, `response`, `assertion`, `both`);
    /// - bit 7: `insecureAllowSHA1`.
    ///
    /// A document the harness cannot seal (not XML, no ID, no Assertion to sign) goes to the verifier as it is.
    public static let samlSealedResponse = FuzzTarget(
        name: "saml-response-sealed",
        summary: "SAMLResponseVerifier on Responses the harness signs/encrypts: checks after the signature",
        body: .sync { input in
            samlSealedWorld.run { world in
                guard let mode = input.first else { return .rejected("empty_input") }
                let xml = input.dropFirst()
                let document = world.sealer.seal(xml, layout: Int32(mode & 0x0F)) ?? Array(xml)
                var configuration = world.configuration
                configuration.signaturePolicy = SAMLSignaturePolicy.allCases[Int(mode >> 5) & 3]
                configuration.insecureAllowSHA1 = mode & 0x80 != 0
                let verifier = SAMLResponseVerifier(configuration: configuration, clock: SAMLFuzzWorld.clock)
                let solicitation: SAMLResponseVerifier.Solicitation =
                    mode & 0x10 != 0 ? .unsolicited : .request(id: SAMLFuzzWorld.requestID)
                return FuzzVerdict.saml { () throws(SAMLError) in
                    _ = try verifier.validate(xml: document, solicitation: solicitation)
                }
            }
        },
        seeds: {
            // Every unencrypted fixture Response without its signatures, under the layouts an IdP uses.
            let layouts: [UInt8] = [0x01, 0x02, 0x03, 0x05, 0x06, 0x0D, 0x0E, 0x13, 0x63]
            var seeds: [String: [UInt8]] = [:]
            for (name, bytes) in try FuzzFixtures.files(in: "saml/responses") where name.hasSuffix(".xml") {
                let unsigned = SignatureStripper.strip(bytes)
                for layout in layouts { seeds["\(String(layout, radix: 16))-\(name)"] = [layout] + unsigned }
            }
            return seeds
        })

    private static let samlSealedWorld = FuzzSetup {
        SAMLSealedWorld(
            sealer: try SAMLSealer(signingKey: "idp-ec", encryptionCertificate: "sp"),
            configuration: try SAMLFuzzWorld.configuration(pinning: [FuzzFixtures.samlCertificate("idp-ec")]))
    }
}

private struct SAMLSealedWorld: Sendable {
    let sealer: SAMLSealer
    let configuration: SAMLResponseVerifier.Configuration
}

/// Removes every `ds:Signature` element from a fixture document's text, for seeds.
private enum SignatureStripper {
    static let pattern = try? NSRegularExpression(
        pattern: #"<([A-Za-z0-9_]+:|)Signature[\s>].*?</\1Signature>"#, options: [.dotMatchesLineSeparators])

    static func strip(_ bytes: [UInt8]) -> [UInt8] {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let pattern else { return bytes }
        let range = NSRange(text.startIndex..., in: text)
        return Array(pattern.stringByReplacingMatches(in: text, range: range, withTemplate: "").utf8)
    }
}
