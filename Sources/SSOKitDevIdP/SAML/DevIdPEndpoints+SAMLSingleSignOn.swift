import Foundation
import HTTPTypes
import SSOKitOIDC
import SSOKitSAML

extension DevIdPEndpoints {
    /// `GET|POST /saml/sso`: an AuthnRequest on the HTTP-Redirect or HTTP-POST binding (SAML Profiles §4.1.4.1).
    ///
    /// Until the request is known to come from a registered SP for one of its ACS URLs, refusals are error pages;
    /// after that, the SP gets a Response, signed, by auto-post: the assertion, or a failure status (NoPassive,
    /// InvalidNameIDPolicy, AuthnFailed).
    func samlSingleSignOn(_ request: EndpointRequest) async -> EndpointResponse {
        let authentication: SAMLAuthentication
        do throws(DevIdPError) {
            authentication = try await acceptedAuthnRequest(request)
        } catch {
            return errorPage(error)
        }
        if let format = authentication.nameIDFormat, !SAMLNames.NameIDFormat.all.contains(format) {
            return await samlFailure(authentication, status: .invalidNameIDPolicy)
        }
        if let session = await stores.sessions.session(cookie: request.cookie(IdPCookies.session), now: now),
            !authentication.forceAuthn
        {
            return await samlAnswer(authentication, session: session)
        }
        if authentication.isPassive { return await samlFailure(authentication, status: .noPassive) }
        return await beginLogin(.samlLogin(authentication), audience: authentication.serviceProviderEntityID)
    }

    /// Reads and checks an AuthnRequest: a registered issuer, its signature, the envelope, the ACS URL, the binding
    /// of the answer, and a request ID not seen before from that SP.
    private func acceptedAuthnRequest(_ request: EndpointRequest) async throws(DevIdPError) -> SAMLAuthentication {
        let incoming = try IncomingSAMLMessage(request)
        let message = incoming.message
        guard let issuer = message.issuer, let provider = serviceProviders[issuer] else {
            throw DevIdPError(.unknownServiceProvider, "the request's Issuer names no registered service provider")
        }
        try incoming.verifySignature(for: provider)
        try incoming.checkEnvelope(
            name: "AuthnRequest", endpoint: site.samlSingleSignOn, now: now, maximumAge: lifetimes.samlRequestAge)
        let acs = try Self.assertionConsumerService(message, provider: provider)
        if let binding = message.protocolBinding, binding != SAMLNames.postBinding {
            throw DevIdPError(.invalidSAMLRequest, "the IdP answers only with the HTTP-POST binding")
        }
        guard
            await stores.oneTimeValues.firstUse(
                "saml \(provider.entityID) \(message.id)", until: now.addingTimeInterval(lifetimes.samlRequestAge + 60),
                now: now)
        else { throw DevIdPError(.invalidSAMLRequest, "this request ID was used before") }
        return SAMLAuthentication(
            serviceProviderEntityID: provider.entityID, requestID: message.id, assertionConsumerServiceURL: acs,
            relayState: incoming.relayState, nameIDFormat: message.nameIDPolicyFormat,
            forceAuthn: message.forceAuthn, isPassive: message.isPassive)
    }

    /// The ACS URL to answer at: the request's, if registered; else the one its index names; else the default, which
    /// must be a complete URL (one registered without a port cannot be guessed).
    private static func assertionConsumerService(
        _ message: ReceivedSAMLMessage, provider: SAMLServiceProviderRegistration
    ) throws(DevIdPError) -> String {
        if let url = message.assertionConsumerServiceURL {
            guard RegisteredURLMatching.matches(url, anyOf: provider.assertionConsumerServiceURLs) else {
                throw DevIdPError(
                    .invalidAssertionConsumerService, "the AssertionConsumerServiceURL is not registered for the SP")
            }
            return url
        }
        let index = message.assertionConsumerServiceIndex.map { Int($0) } ?? 0
        guard let index, provider.assertionConsumerServiceURLs.indices.contains(index),
            !RegisteredURLMatching.isAnyPortPattern(provider.assertionConsumerServiceURLs[index])
        else {
            throw DevIdPError(
                .invalidAssertionConsumerService, "the request names no usable AssertionConsumerService")
        }
        return provider.assertionConsumerServiceURLs[index]
    }

    /// The signed (and, if registered, encrypted) Response with the user's assertion, as an auto-post page.
    func samlAnswer(_ authentication: SAMLAuthentication, session: UserSession) async -> EndpointResponse {
        guard let user = users[session.username] else { return await samlFailure(authentication, status: .authnFailed) }
        guard let subject = SAMLSubject(user: user, requestedFormat: authentication.nameIDFormat) else {
            return await samlFailure(authentication, status: .invalidNameIDPolicy)
        }
        return autoPost(authentication, status: .success, subject: subject, session: session)
    }

    /// A signed Response with a failure status and no assertion, as an auto-post page.
    func samlFailure(_ authentication: SAMLAuthentication, status: SAMLStatus) async -> EndpointResponse {
        autoPost(authentication, status: status, subject: nil, session: nil)
    }

    private func autoPost(
        _ authentication: SAMLAuthentication, status: SAMLStatus, subject: SAMLSubject?, session: UserSession?
    ) -> EndpointResponse {
        guard let provider = serviceProviders[authentication.serviceProviderEntityID] else {
            return errorPage(DevIdPError(.unknownServiceProvider, "the service provider is no longer registered"))
        }
        let writer = SAMLResponseWriter(issuer: site.samlEntityID, now: now, lifetimes: lifetimes)
        let xml = writer.response(
            .init(
                destination: authentication.assertionConsumerServiceURL, inResponseTo: authentication.requestID,
                audience: provider.entityID), status: status, subject: subject, session: session)
        do {
            let sealed = try SAMLResponseSealer.seal(
                xml, key: configuration.keys.samlKey, signAssertion: provider.signAssertion,
                encryptingFor: provider.encryptionCertificate, signResponse: provider.signResponse || subject == nil)
            let form = try AutoPostForm(
                action: authentication.assertionConsumerServiceURL, kind: .response,
                message: SAMLText.encodeBase64(sealed), relayState: authentication.relayState,
                scriptNonce: RandomToken.make(byteCount: 16))
            var response = EndpointResponse(
                status: .ok, contentType: "text/html; charset=utf-8", body: Array(form.html.utf8))
            response.headers[.contentSecurityPolicy] = form.contentSecurityPolicy
            response.headers[.xFrameOptions] = "DENY"
            return response
        } catch {
            return errorPage(DevIdPError(.serverError, "the Response could not be sealed (\(error.code))"))
        }
    }
}
