import SSOKitConformance
import SSOKitCore
import SSOKitOIDC

extension FuzzTarget {
    /// The strict JSON parser on any bytes; on what it accepts, the JSON text SSOKit writes (which the parser must
    /// read back to the same text) and JWK-set loading (RFC 7517), as a JWKS response reaches it.
    public static let json = FuzzTarget(
        name: "json",
        summary:
            "JSONParser; parseObjectMembers must agree with parse; jsonText must parse back to itself; JSONWebKeySet on"
            + " every parsed document",
        body: .sync { input in
            let members = Result { () throws(JSONParser.Failure) in
                try input.withUnsafeBufferPointer { buffer throws(JSONParser.Failure) in
                    try JSONParser().parseObjectMembers(buffer)
                }
            }
            let value: JSONValue
            do {
                value = try JSONParser().parse(input)
            } catch {
                guard case .failure = members else { return .violated("parseObjectMembers accepts what parse refuses") }
                return .rejected("invalid_json")
            }
            if let problem = disagreement(members, value) { return .violated(problem) }
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

/// How `members` (``JSONParser/parseObjectMembers(_:)`` on a document) differs from `value` (``JSONParser/parse(_:)``
/// on the same document, which accepted it), or nil when they agree: the same members with the same names and values,
/// or nil members for a document that is not an object.
private func disagreement(_ members: Result<[JSONMember]?, JSONParser.Failure>, _ value: JSONValue) -> String? {
    guard case .success(let list) = members else { return "parseObjectMembers refuses what parse accepts" }
    guard let list else { return value.objectValue == nil ? nil : "parseObjectMembers finds no object" }
    guard let object = value.objectValue, object.count == list.count else {
        return "parseObjectMembers and parse disagree on the members"
    }
    for member in list {
        guard object[member.name] == member.value else {
            return "a member's name or value differs between parseObjectMembers and parse"
        }
        // A key, when the parser made one, is the key of the member's name.
        guard member.nameKey == .none || member.nameKey == JSONNameKey(member.name) else {
            return "a member's key is not its name's"
        }
    }
    return nil
}
