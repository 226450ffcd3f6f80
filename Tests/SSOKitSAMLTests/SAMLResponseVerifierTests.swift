import Foundation
import SSOKitCore
import SSOKitSAML
import Testing

@Suite("SAMLResponseVerifier")
struct SAMLResponseVerifierTests {
    @Test("a signed response yields the typed assertion")
    func acceptsSignedAssertion() throws {
        let (verifier, solicitation, xml) = try SAMLTestSupport.verifier(forCase: "assertion-signed-rsa-sha256-valid")
        let assertion = try verifier.validate(xml: xml, solicitation: solicitation)
        #expect(!assertion.nameID.isEmpty)
        #expect(assertion.assertionWasSigned)
        #expect(!assertion.responseWasSigned)
        #expect(assertion.notOnOrAfter != nil)
    }

    @Test("8 concurrent tasks x 500 responses (valid and tampered) all get the right verdict")
    func concurrentVerification() async throws {
        let (verifier, solicitation, valid) = try SAMLTestSupport.verifier(forCase: "assertion-signed-rsa-sha256-valid")
        let tampered = Array(
            String(decoding: valid, as: UTF8.self).replacingOccurrences(of: "alice@", with: "mallory@").utf8)
        #expect(tampered != valid)
        let expectedName = try verifier.validate(xml: valid, solicitation: solicitation).nameID
        let results = await withTaskGroup(of: (Int, Int).self) { group in
            for task in 0..<8 {
                group.addTask {
                    var right = 0
                    var wrong = 0
                    for index in 0..<500 {
                        let useValid = (index + task) % 2 == 0
                        do {
                            let assertion = try verifier.validate(
                                xml: useValid ? valid : tampered, solicitation: solicitation)
                            if useValid, assertion.nameID == expectedName { right += 1 } else { wrong += 1 }
                        } catch {
                            if !useValid, (error as? SAMLError)?.code == .invalidSignature {
                                right += 1
                            } else {
                                wrong += 1
                            }
                        }
                    }
                    return (right, wrong)
                }
            }
            var total = (0, 0)
            for await result in group { total = (total.0 + result.0, total.1 + result.1) }
            return total
        }
        #expect(results.0 == 4000)
        #expect(results.1 == 0)
    }

    @Test("a replay guard refuses the second use of an assertion ID, naming the replay rule")
    func replayIsRefused() async throws {
        let replayGuard = InMemoryAssertionReplayGuard(clock: FixedClock(unixSeconds: 1_767_225_600))
        let (verifier, solicitation, xml) = try SAMLTestSupport.verifier(
            forCase: "assertion-signed-rsa-sha256-valid", replayGuard: replayGuard)
        _ = try await verifier.verify(xml: xml, solicitation: solicitation)
        let error = await #expect(throws: SAMLError(.replayDetected, "")) {
            try await verifier.verify(xml: xml, solicitation: solicitation)
        }
        #expect(error?.rule == "replay")
    }

    @Test("base64 as posted and raw XML give the same assertion; garbage is invalid_encoding")
    func base64Input() throws {
        let (verifier, solicitation, xml) = try SAMLTestSupport.verifier(forCase: "assertion-signed-rsa-sha256-valid")
        let encoded = Data(xml).base64EncodedString(options: .lineLength76Characters)
        #expect(
            try verifier.validate(postedResponse: encoded, solicitation: solicitation)
                == verifier.validate(xml: xml, solicitation: solicitation))
        #expect(throws: SAMLError(.invalidEncoding, "")) {
            try verifier.validate(postedResponse: "not*base64!", solicitation: solicitation)
        }
        #expect(throws: SAMLError(.invalidEncoding, "")) {
            try verifier.validate(postedResponse: "", solicitation: solicitation)
        }
    }

    @Test("the wrong solicitation is refused: another request ID, or unsolicited when a request was made")
    func solicitation() throws {
        let (verifier, _, xml) = try SAMLTestSupport.verifier(forCase: "assertion-signed-rsa-sha256-valid")
        #expect(throws: SAMLError(.inResponseToMismatch, "")) {
            try verifier.validate(xml: xml, solicitation: .request(id: "_another"))
        }
        #expect(throws: SAMLError(.inResponseToMismatch, "")) {
            try verifier.validate(xml: xml, solicitation: .unsolicited)
        }
    }

    @Test("error reasons never carry the NameID or attribute values")
    func reasonsCarryNoAssertionData() throws {
        let (verifier, _, xml) = try SAMLTestSupport.verifier(forCase: "assertion-signed-rsa-sha256-valid")
        let error = #expect(throws: SAMLError.self) {
            try verifier.validate(xml: xml, solicitation: .request(id: "_another"))
        }
        #expect(error?.reason.contains("alice") == false)
        #expect(error?.description.contains("alice") == false)
    }

    @Test("a PEM without a certificate, and a garbage key, are invalid_key")
    func badKeys() {
        #expect(throws: SAMLError(.invalidKey, "")) { try SAMLCertificate(pem: "no pem here") }
        #expect(throws: SAMLError(.invalidKey, "")) { try SAMLCertificate(der: [0x30, 0x03, 0x02, 0x01, 0x00]) }
        #expect(throws: SAMLError(.invalidKey, "")) {
            try SAMLPrivateKey(pem: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n")
        }
    }

    @Test(
        "xs:dateTime parsing refuses what Date.ISO8601FormatStyle lets through",
        arguments: [
            "2026-02-29T00:00:00Z", "2026-01-01T24:00:00Z", "2026-1-01T00:00:00Z", "2026-01-01T00:00:00+15:00",
            "2026-01-01T00:00:00+0100", "2026-01-01T00:00:00Z ",
        ])
    func strictDateTimes(_ text: String) {
        #expect(SAMLDateTime.parse(text) == nil)
    }

    @Test(
        "xs:dateTime is case-sensitive and has no leap second (XML Schema 1.1 Part 2 §3.3.7)",
        arguments: ["2026-01-01t00:00:00Z", "2026-01-01T00:00:00z", "2026-06-30T23:59:60Z"])
    func caseAndLeapSecond(_ text: String) {
        #expect(SAMLDateTime.parse(text) == nil)
    }

    @Test("xs:dateTime parsing: leap days, long fractions")
    func calendarDateTimes() {
        #expect(SAMLDateTime.parse("2028-02-29T00:00:00Z") != nil)
        #expect(SAMLDateTime.parse("2026-01-01T00:00:00.1234567890123Z") != nil)
    }

    @Test("xs:dateTime parsing: Z, fractions, offsets; garbage refused")
    func dateTimes() {
        #expect(SAMLDateTime.parse("2026-01-01T00:00:00Z")?.timeIntervalSince1970 == 1_767_225_600)
        #expect(SAMLDateTime.parse("2026-01-01T01:00:00+01:00")?.timeIntervalSince1970 == 1_767_225_600)
        #expect(SAMLDateTime.parse("2026-01-01T00:00:00.500Z")?.timeIntervalSince1970 == 1_767_225_600.5)
        #expect(SAMLDateTime.parse("2026-02-30T00:00:00Z") == nil)
        #expect(SAMLDateTime.parse("2026-01-01 00:00:00Z") == nil)
        #expect(SAMLDateTime.parse("2026-01-01T00:00:00") == nil)
        #expect(SAMLDateTime.format(Date(timeIntervalSince1970: 1_767_225_600)) == "2026-01-01T00:00:00Z")
    }
}

@Suite("SAML base64 decoding through the public API")
struct SAMLBase64InputTests {
    @Test(
        "malformed base64 is invalid_encoding",
        arguments: [
            "A", "AB", "ABC", "AB=C", "A===", "ABCD=", "AB==CD==", "AB=", "QQ=X", "QR==", "QUJ=", "====", "\u{00E9}",
        ])
    func malformed(_ text: String) throws {
        let (verifier, solicitation, _) = try SAMLTestSupport.verifier(forCase: "assertion-signed-rsa-sha256-valid")
        #expect(throws: SAMLError(.invalidEncoding, "")) {
            try verifier.validate(postedResponse: text, solicitation: solicitation)
        }
    }
}
