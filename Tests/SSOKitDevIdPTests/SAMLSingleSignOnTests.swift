import Foundation
import HTTPTypes
import SSOKitConformance
import SSOKitCore
import SSOKitDevIdP
import SSOKitSAML
import Testing

/// SAML SSO and SLO, checked with SSOKit's own SP side (pinned certificate, every Response check): both bindings,
/// signed and encrypted Responses, and every refusal of an AuthnRequest.
@Suite struct SAMLSingleSignOnTests {
    private func builder(
        _ entityID: String = DevIdPTestValues.signedSP, acs: String = DevIdPTestValues.signedACS,
        format: String? = nil, clock: any SSOKitClock = SystemClock()
    ) throws -> AuthnRequestBuilder {
        try AuthnRequestBuilder(
            serviceProviderEntityID: entityID, assertionConsumerServiceURL: acs,
            nameIDPolicy: .init(format: format), clock: clock)
    }

    private func verifier(
        _ idp: DevIdPHarness, sp: String = DevIdPTestValues.signedSP,
        acs: String = DevIdPTestValues.signedACS
    ) throws -> SAMLResponseVerifier {
        SAMLResponseVerifier(
            configuration: .init(
                serviceProviderEntityID: sp, assertionConsumerServiceURL: acs,
                identityProviderEntityID: idp.issuer + "/saml/metadata",
                identityProviderCertificates: [try DevIdPTestValues.keys.get().samlCertificate],
                decryptionKey: try DevIdPTestValues.spKey()))
    }

    private func redirectURL(
        _ idp: DevIdPHarness, _ request: AuthnRequest, signed: Bool = true, relayState: String? = nil
    )
        throws -> String
    {
        try RedirectBinding.url(
            destination: idp.issuer + "/saml/sso", xml: request.xml, relayState: relayState,
            signingKey: signed ? try DevIdPTestValues.spKey() : nil)
    }

    @Test func metadataDescribesTheIdP() async throws {
        try await DevIdPHarness.with { idp in
            let page = try await idp.browser().get(idp.issuer + "/saml/metadata")
            #expect(page.headers[.contentType] == "application/samlmetadata+xml")
            let metadata = try IdentityProviderMetadata.parse(Array(page.body.utf8))
            #expect(metadata.entityID == idp.issuer + "/saml/metadata")
            #expect(metadata.singleSignOnURL(binding: AuthnRequest.Binding.redirect) == idp.issuer + "/saml/sso")
            #expect(metadata.singleSignOnURL(binding: AuthnRequest.Binding.post) == idp.issuer + "/saml/sso")
            #expect(metadata.signingCertificates == [try DevIdPTestValues.keys.get().samlCertificate])
            #expect(!metadata.wantAuthnRequestsSigned, "one registered SP may send unsigned requests")
            #expect(metadata.singleLogoutServices.count == 2)
        }
    }

    @Test func signedRedirectRequestGetsASignedEncryptedResponse() async throws {
        try await DevIdPHarness.with { idp in
            let browser = idp.browser()
            let request = try builder().build(destination: idp.issuer + "/saml/sso")
            let page = try await browser.signIn(
                at: try redirectURL(idp, request, relayState: "state 123/ü"), username: "alice",
                password: DevIdPTestValues.password)
            #expect(page.status == 200)
            #expect(page.headers[.contentSecurityPolicy]?.contains("form-action http://127.0.0.1:7001") == true)
            let form = try AutoPostFormParser().parse(page.body)
            #expect(form.action == DevIdPTestValues.signedACS)
            #expect(form.relayState == "state 123/ü")
            let xml = String(decoding: try #require(Data(base64Encoded: form.message)), as: UTF8.self)
            #expect(xml.contains("EncryptedAssertion"))
            #expect(!xml.contains("alice@example.com"), "the NameID and attributes travel encrypted")
            let assertion = try await verifier(idp).verify(
                postedResponse: form.message, solicitation: .request(id: request.id))
            #expect(assertion.nameID == "alice@example.com")
            #expect(assertion.nameIDFormat == "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress")
            #expect(assertion.responseWasSigned && assertion.assertionWasSigned)
            #expect(assertion.values(of: "mail") == ["alice@example.com"])
            #expect(assertion.values(of: "displayName") == ["Alice Example"])
            #expect(assertion.values(of: "uid") == ["alice"])
            #expect(assertion.values(of: "isMemberOf") == ["staff", "admins"])
            #expect(assertion.sessionIndex != nil)
            #expect(assertion.issuer == idp.issuer + "/saml/metadata")

            // The session answers a signed POST-binding request without the form.
            let second = try builder().build(destination: idp.issuer + "/saml/sso")
            let posted = try await browser.post(
                idp.issuer + "/saml/sso",
                form: [("SAMLRequest", try PostBinding.encode(second, signingKey: try DevIdPTestValues.spKey()))])
            let again = try await verifier(idp).verify(
                postedResponse: try AutoPostFormParser().parse(posted.body).message,
                solicitation: .request(id: second.id))
            #expect(again.sessionIndex == assertion.sessionIndex)
        }
    }

    @Test func openServiceProviderGetsAResponseSignedOnlyAtTheTop() async throws {
        try await DevIdPHarness.with { idp in
            let acs = "http://127.0.0.1:7777/acs"
            let request = try builder(
                DevIdPTestValues.openSP, acs: acs, format: "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent"
            )
            .build(destination: idp.issuer + "/saml/sso")
            let page = try await idp.browser().signIn(
                at: try redirectURL(idp, request, signed: false), username: "alice",
                password: DevIdPTestValues.password)
            let assertion = try await verifier(idp, sp: DevIdPTestValues.openSP, acs: acs).verify(
                postedResponse: try AutoPostFormParser().parse(page.body).message,
                solicitation: .request(id: request.id))
            #expect(assertion.responseWasSigned && !assertion.assertionWasSigned)
            #expect(assertion.nameID == "user-alice")
            #expect(assertion.nameIDSPNameQualifier == DevIdPTestValues.openSP)
        }
    }

    @Test func refusedRequests() async throws {
        try await DevIdPHarness.with { idp in
            let sso = idp.issuer + "/saml/sso"
            func answer(_ url: String) async throws -> TestResponse { try await idp.browser().get(url) }
            let unsigned = try await answer(try redirectURL(idp, try builder().build(destination: sso), signed: false))
            #expect(unsigned.status == 403)
            #expect(unsigned.body.contains("signature_required"))
            let unsignedPost = try await idp.browser().post(
                sso,
                form: [("SAMLRequest", try PostBinding.encode(try builder().build(destination: sso), signingKey: nil))])
            #expect(unsignedPost.status == 403)
            #expect(unsignedPost.body.contains("signature_required"))
            let forged = try RedirectBinding.url(
                destination: sso, xml: try builder().build(destination: sso).xml,
                signingKey: try DevIdPTestValues.spKey("attacker"))
            #expect(try await answer(forged).body.contains("invalid_signature"))
            let signed = try redirectURL(idp, try builder().build(destination: sso), relayState: "abc")
            let tampered = signed.replacingOccurrences(of: "RelayState=abc", with: "RelayState=abd")
            #expect(try await answer(tampered).status == 403, "the query signature covers RelayState")
            let unknown = try await answer(
                try redirectURL(idp, try builder("https://stranger.example").build(destination: sso), signed: false))
            #expect(unknown.status == 400)
            #expect(unknown.body.contains("unknown_service_provider"))
            let otherACS = try await answer(
                try redirectURL(idp, try builder(acs: "http://127.0.0.1:7001/other").build(destination: sso)))
            #expect(otherACS.body.contains("invalid_assertion_consumer_service"))
            let wrongDestination = try await answer(
                try redirectURL(idp, try builder().build(destination: "https://idp.example.com/sso")))
            #expect(wrongDestination.body.contains("invalid_saml_request"))
            let stale = try await answer(
                try redirectURL(
                    idp, try builder(clock: FixedClock(Date().addingTimeInterval(-3600))).build(destination: sso)))
            #expect(stale.body.contains("invalid_saml_request"))
            let replayed = try redirectURL(idp, try builder().build(destination: sso))
            #expect(try await answer(replayed).isLoginForm)
            #expect(try await answer(replayed).body.contains("invalid_saml_request"), "a request ID is used once")
            // Without an AssertionConsumerServiceURL the default ACS is used, but an any-port one has no port to use.
            let noACS = """
                <samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" \
                xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="\(AuthnRequestBuilder.newID())" Version="2.0" \
                IssueInstant="\(SAMLDateTime.format(Date()))"><saml:Issuer>\(DevIdPTestValues.openSP)</saml:Issuer>\
                </samlp:AuthnRequest>
                """
            let defaultACS = try await answer(try RedirectBinding.url(destination: sso, xml: noACS))
            #expect(defaultACS.body.contains("invalid_assertion_consumer_service"), "an any-port ACS needs its port")
            let garbage = try await answer(sso + "?SAMLRequest=bm90LWRlZmxhdGU%3D")
            #expect(garbage.status == 400)
        }
    }

    @Test func failureStatusesGoBackToTheServiceProvider() async throws {
        try await DevIdPHarness.with { idp in
            let sso = idp.issuer + "/saml/sso"
            func status(_ page: TestResponse, _ id: String) async throws -> [String] {
                let message = try AutoPostFormParser().parse(page.body).message
                let verifier = try verifier(idp)
                do throws(SAMLError) {
                    _ = try await verifier.verify(postedResponse: message, solicitation: .request(id: id))
                    return []
                } catch {
                    #expect(error.code == .statusNotSuccess)
                    return error.statusCodes
                }
            }
            let passive = try builder().build(destination: sso, isPassive: true)
            let passivePage = try await idp.browser().get(try redirectURL(idp, passive))
            #expect(try await status(passivePage, passive.id).last == "urn:oasis:names:tc:SAML:2.0:status:NoPassive")
            let x509 = try builder(format: "urn:oasis:names:tc:SAML:1.1:nameid-format:X509SubjectName")
                .build(destination: sso)
            let policyPage = try await idp.browser().get(try redirectURL(idp, x509))
            #expect(
                try await status(policyPage, x509.id).last == "urn:oasis:names:tc:SAML:2.0:status:InvalidNameIDPolicy")
            let cancelled = try builder().build(destination: sso)
            let cancelPage = try await idp.browser().signIn(
                at: try redirectURL(idp, cancelled), username: "", password: "", action: "cancel")
            #expect(try await status(cancelPage, cancelled.id).last == "urn:oasis:names:tc:SAML:2.0:status:AuthnFailed")
        }
    }

    @Test func singleLogoutEndsTheSessionAndAnswersSigned() async throws {
        try await DevIdPHarness.with { idp in
            let browser = idp.browser()
            let request = try builder().build(destination: idp.issuer + "/saml/sso")
            let page = try await browser.signIn(
                at: try redirectURL(idp, request), username: "alice", password: DevIdPTestValues.password)
            let assertion = try await verifier(idp).verify(
                postedResponse: try AutoPostFormParser().parse(page.body).message,
                solicitation: .request(id: request.id))
            let slo = idp.issuer + "/saml/slo"
            let logoutID = AuthnRequestBuilder.newID()
            let logoutXML = """
                <samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" \
                xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="\(logoutID)" Version="2.0" \
                IssueInstant="\(SAMLDateTime.format(Date()))" Destination="\(slo)">\
                <saml:Issuer>\(DevIdPTestValues.signedSP)</saml:Issuer>\
                <saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">alice@example.com</saml:NameID>\
                <samlp:SessionIndex>\(assertion.sessionIndex ?? "")</samlp:SessionIndex></samlp:LogoutRequest>
                """
            let unsigned = try await idp.browser().get(try RedirectBinding.url(destination: slo, xml: logoutXML))
            #expect(unsigned.status == 403, "this SP must sign its LogoutRequests too")
            let answer = try await browser.get(
                try RedirectBinding.url(
                    destination: slo, xml: logoutXML, relayState: "r", signingKey: try DevIdPTestValues.spKey()))
            #expect(answer.status == 302)
            let location = try #require(answer.location)
            #expect(location.hasPrefix(DevIdPTestValues.signedSLO + "?SAMLResponse="))
            let message = try RedirectBinding.decode(
                query: try #require(URLComponents(string: location)?.percentEncodedQuery),
                signer: try DevIdPTestValues.keys.get().samlCertificate)
            #expect(message.parameter == .response)
            #expect(message.messageName == "LogoutResponse")
            #expect(message.relayState == "r")
            let xml = String(decoding: message.xml, as: UTF8.self)
            #expect(xml.contains("InResponseTo=\"\(logoutID)\""))
            #expect(xml.contains("urn:oasis:names:tc:SAML:2.0:status:Success"))
            let next = try builder().build(destination: idp.issuer + "/saml/sso")
            #expect(try await browser.get(try redirectURL(idp, next)).isLoginForm, "the session ended")
        }
    }
}
