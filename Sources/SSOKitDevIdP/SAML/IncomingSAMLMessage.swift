import Foundation
import HTTPTypes
import SSOKitSAML

/// A SAML request as received on the redirect or POST binding, before the sender is trusted.
struct IncomingSAMLMessage: Sendable {
    enum Binding: Sendable {
        /// HTTP-Redirect: the raw query, whose signature covers its octets (Bindings §3.4.4.1).
        case redirect(query: String)
        /// HTTP-POST: the XML, whose signature is enveloped (Bindings §3.5.4).
        case post(xml: [UInt8])
    }

    let message: ReceivedSAMLMessage
    let relayState: String?
    let binding: Binding
    /// Whether a signature is present (it is checked once the sender's certificates are known).
    let isSigned: Bool

    /// The largest decoded message accepted.
    static let maximumBytes = 256 * 1024

    /// Reads the SAMLRequest of a GET (redirect binding) or a form POST (POST binding).
    init(_ request: EndpointRequest) throws(DevIdPError) {
        do {
            if request.method == .post {
                let form = try request.formParameters()
                guard form["SAMLResponse"] == nil, let encoded = form["SAMLRequest"] else {
                    throw DevIdPError(.invalidSAMLRequest, "the form carries no SAMLRequest")
                }
                let xml = try SAMLText.decodeBase64(encoded, limit: Self.maximumBytes)
                let message = try ReceivedSAMLMessage.read(xml)
                relayState = form["RelayState"]
                self.message = message
                binding = .post(xml: xml)
                isSigned = message.hasEnvelopedSignature
            } else {
                let query = request.query ?? ""
                let decoded = try RedirectBinding.decode(
                    query: query, signer: nil, maximumInflatedBytes: Self.maximumBytes)
                guard decoded.parameter == .request else {
                    throw DevIdPError(.invalidSAMLRequest, "the query carries no SAMLRequest")
                }
                message = try ReceivedSAMLMessage.read(decoded.xml)
                relayState = decoded.relayState
                binding = .redirect(query: query)
                isSigned = try request.queryParameters()["Signature"] != nil
            }
        } catch let error as DevIdPError {
            throw error
        } catch let error as SAMLError {
            throw DevIdPError(.invalidSAMLRequest, "the SAML request is not readable (\(error.code))")
        } catch {
            throw DevIdPError(.invalidSAMLRequest, "the SAML request is not readable")
        }
        guard (relayState?.utf8.count ?? 0) <= RedirectBinding.maximumRelayStateBytes else {
            throw DevIdPError(.invalidSAMLRequest, "RelayState is longer than 80 bytes")
        }
    }

    /// Checks the signature against the SP's certificates: required when the SP must sign, verified whenever one is
    /// present and the SP registered certificates (a signature nobody registered a key for proves nothing and is
    /// ignored, as is an absent one where the SP need not sign).
    func verifySignature(for provider: SAMLServiceProviderRegistration) throws(DevIdPError) {
        guard isSigned else {
            if provider.requireSignedRequests {
                throw DevIdPError(.signatureRequired, "this service provider must sign its requests")
            }
            return
        }
        let certificates = provider.signingCertificates
        guard !certificates.isEmpty else { return }
        switch binding {
        case .redirect(let query):
            for certificate in certificates
            where
                (try? RedirectBinding.decode(query: query, signer: certificate, maximumInflatedBytes: Self.maximumBytes))
                != nil
            {
                return
            }
            throw DevIdPError(.invalidSignature, "the request's signature does not verify with the SP's certificates")
        case .post(let xml):
            do {
                try ReceivedSAMLMessage.verifyEnvelopedSignature(xml, certificates: certificates)
            } catch {
                throw DevIdPError(.invalidSignature, "the request's signature does not hold (\(error.code))")
            }
        }
    }

    /// The checks every request gets once its sender is known (SAML Core §3.2.1): the message kind, version 2.0,
    /// a fresh IssueInstant, and a Destination, if any (required when signed, Bindings §3.4.5.2), of this endpoint.
    func checkEnvelope(name: String, endpoint: String, now: Date, maximumAge: TimeInterval) throws(DevIdPError) {
        guard message.messageName == name else {
            throw DevIdPError(.invalidSAMLRequest, "the message is not a \(name)")
        }
        guard message.version == "2.0" else { throw DevIdPError(.invalidSAMLRequest, "the message is not SAML 2.0") }
        guard let instant = message.issueInstant, instant <= now.addingTimeInterval(60),
            now.timeIntervalSince(instant) <= maximumAge
        else { throw DevIdPError(.invalidSAMLRequest, "the IssueInstant is missing, stale or in the future") }
        if let destination = message.destination {
            guard destination == endpoint else {
                throw DevIdPError(.invalidSAMLRequest, "the Destination is not this endpoint")
            }
        } else if isSigned {
            throw DevIdPError(.invalidSAMLRequest, "a signed request must name its Destination")
        }
    }
}
