import Foundation
import SSOKitCore

/// The rule every configured issuer meets wherever it is used (discovery, ID-token verification with any key
/// source, the relying party): an `https` URL with a host, or plain `http` on a loopback host (`localhost`
/// exactly, 127.0.0.0/8, `::1`), judged on the parsed host, with no user info (OIDC Core §2, RFC 8252 §8.3).
///
/// So `http://127.0.0.1.example.com` and `http://127.0.0.1@idp.example.com` are refused: their hosts are not
/// loopback.
public enum IssuerIdentifier {
    /// Throws `insecure_url` unless `issuer` meets the rule.
    public static func validate(_ issuer: String) throws(OIDCError) {
        guard let url = URL(string: issuer), EndpointSecurity.isAllowed(url) else {
            throw OIDCError(.insecureURL, "the issuer must be an https URL (or http on a loopback host)")
        }
    }
}
