import Foundation
import HTTPTypes
import SSOKitSAML

extension DevIdPEndpoints {
    /// `GET|POST /saml/slo`: a LogoutRequest from an SP (SAML Profiles §4.4.4.1) on the HTTP-Redirect or HTTP-POST
    /// binding. The browser's session ends, and so does every session the request's SessionIndex values name; the
    /// SP gets a signed LogoutResponse on the HTTP-Redirect binding at its registered SLO URL, or the browser a page.
    func samlSingleLogout(_ request: EndpointRequest) async -> EndpointResponse {
        let incoming: IncomingSAMLMessage
        let provider: SAMLServiceProviderRegistration
        do throws(DevIdPError) {
            incoming = try IncomingSAMLMessage(request)
            guard let issuer = incoming.message.issuer, let registered = serviceProviders[issuer] else {
                throw DevIdPError(.unknownServiceProvider, "the request's Issuer names no registered service provider")
            }
            provider = registered
            try incoming.verifySignature(for: provider)
            try incoming.checkEnvelope(
                name: "LogoutRequest", endpoint: site.samlSingleLogout, now: now, maximumAge: lifetimes.samlRequestAge)
            guard incoming.message.nameID != nil else {
                throw DevIdPError(.invalidSAMLRequest, "a LogoutRequest must name the user (NameID)")
            }
            guard
                await stores.oneTimeValues.firstUse(
                    "saml \(provider.entityID) \(incoming.message.id)",
                    until: now.addingTimeInterval(lifetimes.samlRequestAge + 60), now: now)
            else { throw DevIdPError(.invalidSAMLRequest, "this request ID was used before") }
        } catch {
            return errorPage(error)
        }
        _ = await stores.sessions.end(cookie: request.cookie(IdPCookies.session), now: now)
        _ = await stores.sessions.end(sids: Set(incoming.message.sessionIndexes))
        var response: EndpointResponse
        if let destination = provider.singleLogoutServiceURL {
            let writer = SAMLResponseWriter(issuer: site.samlEntityID, now: now, lifetimes: lifetimes)
            do {
                let url = try RedirectBinding.url(
                    destination: destination, parameter: .response,
                    xml: writer.logoutResponse(destination: destination, inResponseTo: incoming.message.id),
                    relayState: incoming.relayState, signingKey: configuration.keys.samlKey)
                response = .redirect(to: url, afterPOST: request.method == .post)
            } catch {
                response = errorPage(
                    DevIdPError(.serverError, "the LogoutResponse could not be signed (\(error.code))"))
            }
        } else {
            response = .html(IdPPages.signedOut)
        }
        response.setCookie(IdPCookies.clear(IdPCookies.session))
        return response
    }
}
