import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import SSOKitCore
import SSOKitSAML

extension RelyingPartyRoutes {
    /// GET sign-in: a fresh AuthnRequest whose ID is kept for this browser under a new RelayState, and a redirect to
    /// the IdP's SSO URL (HTTP-Redirect binding, signed when a request signing key is configured).
    func samlSignIn(_ request: Request, logger: Logger) async -> Response {
        await answer(logger) { () async throws(RelyingPartyError) -> Response in
            guard let saml = configuration.saml, let samlRequests else { throw .notConfigured("SAML") }
            let browser = loginCookie(of: request)
            let relayState = SecretToken.make()
            let location: String
            var state = loginState(
                browserCookie: browser, returnPath: ReturnPath.validated(request.uri.queryParameters.get("return_to")))
            do throws(SAMLError) {
                let authnRequest = try samlRequests.build(destination: saml.singleSignOnURL)
                state.saml = LoginState.SAML(requestID: authnRequest.id)
                location = try RedirectBinding.url(
                    destination: saml.singleSignOnURL, xml: authnRequest.xml, relayState: relayState,
                    signingKey: saml.requestSigningKey)
            } catch {
                throw .invalidConfiguration("the AuthnRequest could not be made (\(error.code))")
            }
            try await logins.begin(state, key: relayState)
            return RelyingPartyPages.redirect(
                to: location, cookies: [cookies.login(browser, maxAge: configuration.loginLifetime)])
        }
    }

    /// POST ACS: the sign-in its RelayState names, taken once and only by its browser; then every check of the
    /// Response (signature with the pinned certificates, InResponseTo the kept request ID, audience, destination,
    /// time, and the replay guard), a new session, and a 303 to where the sign-in began.
    ///
    /// An IdP on another site posts cross-site, and the browser then sends no SameSite=Lax cookie: a first post
    /// without the login cookie gets a page that posts the same form again from this site, where the cookie goes
    /// along. A second post without it is refused as coming from another browser.
    func samlAssertionConsumerService(_ request: Request, logger: Logger) async -> Response {
        await answer(logger) { () async throws(RelyingPartyError) -> Response in
            guard let samlVerifier else { throw .notConfigured("SAML") }
            let form = try await Self.readForm(request)
            guard let posted = try form.single("SAMLResponse"), !posted.isEmpty else {
                throw .malformed("the form has no SAMLResponse")
            }
            guard let relayState = try form.single("RelayState"), !relayState.isEmpty else { throw .stateMissing }
            let browser = RelyingPartyCookies.value(named: cookies.loginName, in: request)
            if browser == nil, request.uri.queryParameters.get("resubmitted") == nil {
                return try resubmission(response: posted, relayState: relayState)
            }
            let state = try await logins.take(key: relayState, browserCookie: browser)
            guard let saved = state.saml else { throw .stateUnknown }
            let assertion: SAMLAssertion
            do throws(SAMLError) {
                assertion = try await samlVerifier.verify(
                    postedResponse: posted, solicitation: .request(id: saved.requestID))
            } catch {
                throw .refusal(error)
            }
            let user = SignedInUser(
                signInProtocol: .saml, issuer: assertion.issuer, subject: assertion.nameID,
                displayName: assertion.firstValue(of: Self.displayNameAttributes) ?? assertion.nameID,
                email: assertion.firstValue(of: Self.emailAttributes), signedInAt: clock.now)
            let session = try await sessions.start(
                user, replacing: request, notAfter: assertion.sessionNotOnOrAfter)
            return RelyingPartyPages.redirect(to: state.returnPath, status: .seeOther, cookies: [session])
        }
    }

    /// The attribute names (or friendly names) of a display name: eduPerson's displayName and its OID.
    static let displayNameAttributes = ["displayName", "urn:oid:2.16.840.1.113730.3.1.241"]
    /// The attribute names of an e-mail address: `mail` and its OID.
    static let emailAttributes = ["mail", "email", "urn:oid:0.9.2342.19200300.100.1.3"]

    /// The page that posts the Response again from this site, to the ACS marked as resubmitted.
    private func resubmission(response: String, relayState: String) throws(RelyingPartyError) -> Response {
        let action = configuration.baseURL + configuration.paths.samlAssertionConsumerService + "?resubmitted=1"
        let form: AutoPostForm
        do {
            form = try AutoPostForm(
                action: action, kind: .response, message: response, relayState: relayState,
                scriptNonce: SecretToken.make())
        } catch {
            throw .malformed("the SAMLResponse or RelayState cannot be posted again")
        }
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        headers[.contentSecurityPolicy] = form.contentSecurityPolicy
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: form.html)))
    }

    /// The urlencoded body, at most ``maximumFormBytes``.
    private static func readForm(_ request: Request) async throws(RelyingPartyError) -> PostedForm {
        guard let type = request.headers[.contentType]?.lowercased(),
            type.hasPrefix("application/x-www-form-urlencoded")
        else { throw .malformed("the body is not a form") }
        var request = request
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: maximumFormBytes)
        } catch {
            throw .tooLarge
        }
        guard let pairs = FormURLEncoding.decode(String(buffer: body)) else {
            throw .malformed("the form is not urlencoded")
        }
        return PostedForm(pairs: pairs)
    }
}

/// A posted form's fields, each expected at most once.
struct PostedForm {
    let pairs: [(String, String)]

    /// The value of `name`; throws when the field is repeated.
    func single(_ name: String) throws(RelyingPartyError) -> String? {
        let values = pairs.filter { $0.0 == name }
        guard values.count <= 1 else { throw .malformed("the form repeats a field") }
        return values.first?.1
    }
}

extension SAMLAssertion {
    /// The first value of the first attribute whose name or friendly name is in `names`.
    fileprivate func firstValue(of names: [String]) -> String? {
        attributes.first { attribute in
            names.contains(attribute.name) || attribute.friendlyName.map(names.contains) == true
        }?.values.first
    }
}

extension RelyingPartyError {
    /// A request not shaped as the route expects.
    static func malformed(_ message: String) -> RelyingPartyError {
        RelyingPartyError(.malformedRequest, status: .badRequest, message)
    }

    /// A Response that failed: the IdP's own refusal (a status other than Success), a replay, or a failed check.
    static func refusal(_ error: SAMLError) -> RelyingPartyError {
        let reason = error.code.description
        switch error.code {
        case .statusNotSuccess:
            return RelyingPartyError(
                .identityProviderRefused, status: .forbidden, "the identity provider did not sign you in",
                reason: reason)
        case .replayDetected:
            return RelyingPartyError(
                .assertionReplayed, status: .forbidden, "this assertion was already used", reason: reason)
        default:
            return RelyingPartyError(
                .assertionRejected, status: .forbidden, "the identity provider's answer failed a check",
                reason: reason)
        }
    }
}
