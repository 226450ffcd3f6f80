import Foundation
import SSOKitExtension

/// Matching a request to a profile, beside an in-memory token-cache hit (the floor the adapter is measured
/// against): a catalog of 101 Redirect and 100 Credential payloads, a Redirect URL under the longer of two
/// prefixes on its host, a Credential host found by its domain suffix, a URL nothing handles, the cost of reading
/// scheme, host, port and path from Foundation's `URL` alone, and `URL(string:)` followed by a match.
enum ProfileMatchWorkloads {
    static var all: [Workload] {
        let redirect = "https://idp42.example.com/saml/sso/redirect?SAMLRequest=fZJNT8MwDIbv"
        return [
            TokenCacheWorkloads.memoryHit(suite: "ProfileMatch"),
            match("redirect", redirect),
            match("credential", "https://api.eu.corp42.example.com/v1/items"),
            match("unhandled", "https://www.example.net/index.html", expectMatch: false),
            Workload("ProfileMatch", "url-accessors", gated: false) {
                guard let url = URL(string: redirect) else { throw WorkloadFailure("not a URL") }
                return .sync {
                    let count =
                        (url.scheme?.utf8.count ?? 0) + (url.host(percentEncoded: true)?.utf8.count ?? 0)
                        + (url.port ?? 0) + url.path(percentEncoded: true).utf8.count
                    guard count > 0 else { throw WorkloadFailure("an empty URL") }
                }
            },
            Workload("ProfileMatch", "url-parse-and-match") {
                let catalog = try catalog()
                return .sync {
                    guard let url = URL(string: "https://idp42.example.com/saml/sso?x=1"), catalog.match(url) != nil
                    else { throw WorkloadFailure("no match") }
                }
            },
        ]
    }

    static func match(_ name: String, _ text: String, expectMatch: Bool = true) -> Workload {
        Workload("ProfileMatch", "match-\(name)") {
            let catalog = try catalog()
            guard let url = URL(string: text) else { throw WorkloadFailure("not a URL") }
            return .sync {
                guard (catalog.match(url) != nil) == expectMatch else { throw WorkloadFailure("wrong match") }
            }
        }
    }

    /// 100 Redirect payloads with two URL prefixes each, 100 Credential payloads with a domain suffix each, and
    /// one more Redirect payload.
    static func catalog() throws -> ProfileCatalog {
        var payloads: [String] = []
        for index in 0..<100 {
            payloads.append(
                payload(
                    "r\(index)", type: "Redirect",
                    routes: #""URLs": ["https://idp\#(index).example.com/", "https://idp\#(index).example.com/saml/"]"#)
            )
            payloads.append(
                payload("c\(index)", type: "Credential", routes: #""Hosts": [".corp\#(index).example.com"]"#))
        }
        payloads.append(payload("oidc", type: "Redirect", routes: #""URLs": ["https://login.example.com/oauth2/"]"#))
        let profile = try ProfileLoader().load(
            Array(("{\"PayloadContent\": [" + payloads.joined(separator: ",") + "]}").utf8))
        return try ProfileCatalog(profile)
    }

    static func payload(_ identifier: String, type: String, routes: String) -> String {
        """
        {"PayloadType": "com.apple.extensiblesso", "PayloadIdentifier": "\(identifier)", "Type": "\(type)",
         "ExtensionIdentifier": "com.example.ext", "TeamIdentifier": "ABCDE12345", \(routes),
         "ExtensionData": {"protocol": "oidc", "issuer": "https://idp.example.com", "client_id": "c"}}
        """
    }
}
