import SSOKitSAML

extension FuzzTarget {
    /// A Response as posted to the ACS, through every check: XML parsing limits, the wrapping defences, signature
    /// verification with the fixtures' pinned certificates, decryption with the SP key, and the protocol checks.
    /// Input starting with `<` is the XML; anything else is the base64 form value.
    public static let samlResponse = FuzzTarget(
        name: "saml-response",
        summary: "SAMLResponseVerifier on raw documents (XML, or base64 as posted), plain and encrypted",
        body: .sync { input in
            samlResponseVerifier.run { verifier in
                FuzzVerdict.saml { () throws(SAMLError) in
                    let solicitation = SAMLResponseVerifier.Solicitation.request(id: SAMLFuzzWorld.requestID)
                    if input.first == UInt8(ascii: "<") {
                        _ = try verifier.validate(xml: input, solicitation: solicitation)
                    } else {
                        _ = try verifier.validate(
                            postedResponse: String(decoding: input, as: UTF8.self), solicitation: solicitation)
                    }
                }
            }
        },
        seeds: { try FuzzFixtures.files(in: "saml/responses") })

    /// The fixtures' IdP certificates pinned (RSA, its rollover key, ECDSA), the SP key for decryption.
    private static let samlResponseVerifier = FuzzSetup {
        SAMLResponseVerifier(
            configuration: try SAMLFuzzWorld.configuration(
                pinning: ["idp", "idp-rollover", "idp-ec"].map(FuzzFixtures.samlCertificate)),
            clock: SAMLFuzzWorld.clock)
    }
}
