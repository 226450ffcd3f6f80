/// The demo's `com.apple.extensiblesso` profile: one Redirect payload per protocol on the dev IdP, with the demo
/// client and SP the dev IdP registers (CLI-CONTRACT.md's ExtensionData keys).
enum DemoProfile {
    static let metadataFile = "idp-metadata.xml"
    static let certificateFile = "idp-signing.pem"

    static func json(identityProvider idp: String, webApps web: String, blockedApp: String) -> String {
        """
        {"PayloadContent": [
         {"PayloadType": "com.apple.extensiblesso", "PayloadIdentifier": "com.example.demo.oidc",
          "PayloadUUID": "6F1C2A64-5B0E-4C39-9D4B-1D6C7E0A0001", "ExtensionIdentifier": "com.example.sso.extension",
          "TeamIdentifier": "ABCDE12345", "Type": "Redirect", "URLs": ["\(idp)/authorize"],
          "ExtensionData": {"protocol": "oidc", "issuer": "\(idp)", "client_id": "ssokit-demo", "client_auth": "none",
           "scopes": "openid profile email", "redirect_uri": "http://127.0.0.1:9/callback",
           "AppBlockList": ["\(blockedApp)"]}},
         {"PayloadType": "com.apple.extensiblesso", "PayloadIdentifier": "com.example.demo.saml",
          "PayloadUUID": "6F1C2A64-5B0E-4C39-9D4B-1D6C7E0A0002", "ExtensionIdentifier": "com.example.sso.extension",
          "TeamIdentifier": "ABCDE12345", "Type": "Redirect", "URLs": ["\(idp)/saml/sso"],
          "ExtensionData": {"protocol": "saml", "idp_metadata_file": "\(metadataFile)",
           "idp_certificate": "\(certificateFile)", "sp_entity_id": "urn:ssokit:demo-sp",
           "acs_url": "\(web)/saml/acs", "verify_response": true, "AppBlockList": ["\(blockedApp)"]}}
        ]}
        """
    }
}
