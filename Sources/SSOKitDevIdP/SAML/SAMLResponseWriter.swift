import Foundation
import SSOKitSAML

/// Writes the XML of the Responses the IdP sends to an ACS (SAML Core §3.3.3, §2; Profiles §4.1.4.2), every value
/// escaped. The Assertion declares its own namespaces, so that it stands alone once it is encrypted and decrypted.
struct SAMLResponseWriter {
    /// The IdP's entity ID.
    let issuer: String
    let now: Date
    let lifetimes: DevIdPLifetimes

    /// What the Response answers and where it goes.
    struct Addressing {
        let destination: String
        let inResponseTo: String
        let audience: String
    }

    /// A Response with `status` and, on success, one assertion about `subject` in `session`.
    func response(_ addressing: Addressing, status: SAMLStatus, subject: SAMLSubject?, session: UserSession?)
        -> String
    {
        let e = SAMLText.escape
        var xml = "<samlp:Response xmlns:samlp=\"\(SAMLNames.protocolNamespace)\""
        xml += " xmlns:saml=\"\(SAMLNames.assertionNamespace)\" ID=\"\(AuthnRequestBuilder.newID())\" Version=\"2.0\""
        xml += " IssueInstant=\"\(SAMLDateTime.format(now))\" Destination=\"\(e(addressing.destination))\""
        xml += " InResponseTo=\"\(e(addressing.inResponseTo))\"><saml:Issuer>\(e(issuer))</saml:Issuer>"
        xml += status.xml
        if let subject, let session { xml += assertion(addressing, subject: subject, session: session) }
        return xml + "</samlp:Response>"
    }

    private func assertion(_ addressing: Addressing, subject: SAMLSubject, session: UserSession) -> String {
        let e = SAMLText.escape
        let notOnOrAfter = SAMLDateTime.format(now.addingTimeInterval(lifetimes.assertion))
        var xml = "<saml:Assertion xmlns:saml=\"\(SAMLNames.assertionNamespace)\""
        xml += " xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\""
        xml += " ID=\"\(AuthnRequestBuilder.newID())\" Version=\"2.0\" IssueInstant=\"\(SAMLDateTime.format(now))\">"
        xml += "<saml:Issuer>\(e(issuer))</saml:Issuer>"
        xml += "<saml:Subject><saml:NameID Format=\"\(e(subject.nameIDFormat))\""
        if subject.nameIDFormat == SAMLNames.NameIDFormat.persistent {
            xml += " NameQualifier=\"\(e(issuer))\" SPNameQualifier=\"\(e(addressing.audience))\""
        }
        xml += ">\(e(subject.nameID))</saml:NameID>"
        xml += "<saml:SubjectConfirmation Method=\"\(SAMLNames.bearer)\"><saml:SubjectConfirmationData"
        xml += " InResponseTo=\"\(e(addressing.inResponseTo))\" NotOnOrAfter=\"\(notOnOrAfter)\""
        xml += " Recipient=\"\(e(addressing.destination))\"/></saml:SubjectConfirmation></saml:Subject>"
        xml += "<saml:Conditions NotBefore=\"\(SAMLDateTime.format(now.addingTimeInterval(-30)))\""
        xml += " NotOnOrAfter=\"\(notOnOrAfter)\"><saml:AudienceRestriction>"
        xml += "<saml:Audience>\(e(addressing.audience))</saml:Audience></saml:AudienceRestriction></saml:Conditions>"
        xml += "<saml:AuthnStatement AuthnInstant=\"\(SAMLDateTime.format(session.authTime))\""
        xml += " SessionIndex=\"\(e(session.sid))\" SessionNotOnOrAfter=\"\(SAMLDateTime.format(session.expiresAt))\">"
        xml += "<saml:AuthnContext><saml:AuthnContextClassRef>\(SAMLNames.passwordContext)"
        xml += "</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>"
        xml += "<saml:AttributeStatement>"
        for attribute in subject.attributes {
            xml += "<saml:Attribute Name=\"\(e(attribute.name))\" NameFormat=\"\(SAMLNames.uriAttributeFormat)\""
            xml += " FriendlyName=\"\(e(attribute.friendlyName))\">"
            for value in attribute.values {
                xml += "<saml:AttributeValue xsi:type=\"xs:string\">\(e(value))</saml:AttributeValue>"
            }
            xml += "</saml:Attribute>"
        }
        return xml + "</saml:AttributeStatement></saml:Assertion>"
    }

    /// A LogoutResponse (SAML Core §3.7.2) to `destination`.
    func logoutResponse(destination: String, inResponseTo: String) -> String {
        let e = SAMLText.escape
        var xml = "<samlp:LogoutResponse xmlns:samlp=\"\(SAMLNames.protocolNamespace)\""
        xml += " xmlns:saml=\"\(SAMLNames.assertionNamespace)\" ID=\"\(AuthnRequestBuilder.newID())\" Version=\"2.0\""
        xml += " IssueInstant=\"\(SAMLDateTime.format(now))\" Destination=\"\(e(destination))\""
        xml += " InResponseTo=\"\(e(inResponseTo))\"><saml:Issuer>\(e(issuer))</saml:Issuer>"
        return xml + SAMLStatus.success.xml + "</samlp:LogoutResponse>"
    }
}
