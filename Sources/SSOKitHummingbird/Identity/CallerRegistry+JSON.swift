import SSOKitCore
import SSOKitExtension
import SSOKitOIDC

extension CallerRegistry {
    /// Largest registry file read, in bytes.
    public static let maximumJSONBytes = 1024 * 1024

    /// Reads the registry file of `ssokit serve --registry` (CLI-CONTRACT.md): `{"uids": {"<uid>": [bundle IDs]},
    /// "certificates": {"<hex SHA-256 of the client certificate's DER>": [bundle IDs]}, "loopback": [bundle IDs]}`,
    /// every member optional; unknown members are ignored. A uid must be a decimal number below 2^32, a digest 64
    /// hex digits (either case), each bundle ID well-formed.
    public init(json: some Collection<UInt8>) throws(ServeError) {
        guard json.count <= Self.maximumJSONBytes else {
            throw ServeError(.invalidRegistry, "the registry is larger than \(Self.maximumJSONBytes) bytes")
        }
        guard let value = try? JSONParser(maximumDepth: 4).parse(json), let object = value.objectValue else {
            throw ServeError(.invalidRegistry, "the registry is not one JSON object")
        }
        self.init()
        for (key, list) in try Self.members(object, "uids") {
            guard let uid = UInt32(key), String(uid) == key else {
                throw ServeError(.invalidRegistry, "uids: a key is not a decimal uid")
            }
            grant(.applications(try Self.bundleIdentifiers(list, member: "uids")), to: .localUser(uid: uid))
        }
        for (key, list) in try Self.members(object, "certificates") {
            let digest = key.lowercased()
            guard digest.utf8.count == 64, digest.utf8.allSatisfy(Self.isHexDigit) else {
                throw ServeError(.invalidRegistry, "certificates: a key is not 64 hex digits (SHA-256)")
            }
            grant(
                .applications(try Self.bundleIdentifiers(list, member: "certificates")),
                to: .clientCertificate(sha256: digest))
        }
        if let list = object["loopback"], list != .null {
            grant(.applications(try Self.bundleIdentifiers(list, member: "loopback")), to: .loopback)
        }
    }

    private static func members(_ object: [String: JSONValue], _ name: String) throws(ServeError)
        -> [(String, JSONValue)]
    {
        switch object[name] {
        case nil, .null?: return []
        case .object(let members)?: return members.sorted { $0.key < $1.key }
        default: throw ServeError(.invalidRegistry, "\(name) must be an object")
        }
    }

    private static func bundleIdentifiers(_ value: JSONValue, member: String) throws(ServeError)
        -> Set<String>
    {
        guard case .array(let items) = value else {
            throw ServeError(.invalidRegistry, "\(member): each list must be an array of bundle IDs")
        }
        var names: Set<String> = []
        for item in items {
            guard let name = item.stringValue, BundleIdentifier.isValid(name) else {
                throw ServeError(.invalidRegistry, "\(member): an entry is not a bundle ID")
            }
            names.insert(name)
        }
        return names
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }
}
