import HTTPTypes
import SSOKitSAML

extension DevIdPEndpoints {
    /// `GET /saml/metadata`: the IdP's SAML metadata (SAML Metadata 2.0 §2.4.3), unsigned. `WantAuthnRequestsSigned`
    /// is true only when every registered SP must sign.
    func samlMetadata() -> EndpointResponse {
        let e = SAMLText.escape
        let wantSigned = !serviceProviders.isEmpty && serviceProviders.values.allSatisfy(\.requireSignedRequests)
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<md:EntityDescriptor xmlns:md=\"urn:oasis:names:tc:SAML:2.0:metadata\""
        xml += " xmlns:ds=\"http://www.w3.org/2000/09/xmldsig#\" entityID=\"\(e(site.samlEntityID))\">\n"
        xml += "  <md:IDPSSODescriptor WantAuthnRequestsSigned=\"\(wantSigned)\""
        xml += " protocolSupportEnumeration=\"\(SAMLNames.protocolNamespace)\">\n"
        xml += "    <md:KeyDescriptor use=\"signing\"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>"
        xml += configuration.keys.samlCertificate.base64
        xml += "</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>\n"
        for binding in [SAMLNames.redirectBinding, SAMLNames.postBinding] {
            xml += "    <md:SingleLogoutService Binding=\"\(binding)\" Location=\"\(e(site.samlSingleLogout))\"/>\n"
        }
        for format in SAMLNames.NameIDFormat.all { xml += "    <md:NameIDFormat>\(format)</md:NameIDFormat>\n" }
        for binding in [SAMLNames.redirectBinding, SAMLNames.postBinding] {
            xml += "    <md:SingleSignOnService Binding=\"\(binding)\" Location=\"\(e(site.samlSingleSignOn))\"/>\n"
        }
        xml += "  </md:IDPSSODescriptor>\n</md:EntityDescriptor>\n"
        return EndpointResponse(status: .ok, contentType: "application/samlmetadata+xml", body: Array(xml.utf8))
    }
}
