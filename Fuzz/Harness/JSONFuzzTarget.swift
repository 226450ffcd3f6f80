import SSOKitConformance
import SSOKitCore
import SSOKitOIDC

extension FuzzTarget {
    /// The strict JSON parser on any bytes; on what it accepts, the JSON text SSOKit writes (which the parser must
    /// read back to the same text) and JWK-set loading (RFC 7517), as a JWKS response reaches it.
    public static let json = FuzzTarget(
        name: "json",
        summary: "JSONParser; jsonText must parse back to itself; JSONWebKeySet on every parsed document",
        body: .sync { input in
            let value: JSONValue
            do {
                value = try JSONParser().parse(input)
            } catch {
                return .rejected("invalid_json")
            }
            let text = value.jsonText
            guard let reparsed = try? JSONParser().parse(Array(text.utf8)) else {
                return .violated("the parser refuses the jsonText of a value it parsed")
            }
            guard reparsed.jsonText == text else { return .violated("jsonText does not read back to itself") }
            return .typed({ () throws(OIDCError) in _ = try JSONWebKeySet(document: value) }, code: \.code.description)
        },
        seeds: {
            var seeds: [String: [UInt8]] = [:]
            for (name, bytes) in try FuzzFixtures.files(in: "oidc/jwks") { seeds["jwks-\(name)"] = bytes }
            for fixture in try FuzzFixtures.cases("oidc/cases") {
                if let document = fixture.members["document"] {
                    seeds["document-\(fixture.name)"] = Array(document.jsonText.utf8)
                }
                // The header and payload of every ID token.
                for segment in IDTokenSegments(fixture.string("token") ?? "").jsonSegments.enumerated() {
                    seeds["token-\(segment.offset)-\(fixture.name)"] = segment.element
                }
            }
            return seeds
        })
}

/// The decoded segments of a compact JWS, for building seeds.
struct IDTokenSegments {
    let segments: [[UInt8]?]

    init(_ token: String) {
        segments = token.split(separator: ".", omittingEmptySubsequences: false).map { Base64URL.decode(String($0)) }
    }

    /// The header's and the payload's bytes (the JSON as the token carries it), when both decode.
    var jsonSegments: [[UInt8]] {
        guard segments.count == 3, let header = segments[0], let payload = segments[1] else { return [] }
        return [header, payload]
    }
}
