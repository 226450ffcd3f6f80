import Foundation
import HTTPTypes
import SSOKitCore
import SSOKitOIDC

extension AuthorizationRequest {
    /// Largest JSON body read, in bytes.
    public static let maximumJSONBytes = 64 * 1024
    /// Most headers a request may carry.
    static let maximumHeaderCount = 64
    /// Longest URL accepted, in UTF-8 bytes.
    static let maximumURLBytes = 8 * 1024

    /// Reads the body of `POST /v1/authorize` (CLI-CONTRACT.md): `{"app", "operation", "url", "method", "headers",
    /// "body", "realm", "ui"}`, and SSOKit's additions `"options"` (an object of strings) and `"screen_locked"`.
    /// Unknown members are ignored.
    public init(json: some Collection<UInt8>) throws(AuthorizationInputError) {
        guard json.count <= Self.maximumJSONBytes else {
            throw AuthorizationInputError(.tooLarge, "the request is larger than \(Self.maximumJSONBytes) bytes")
        }
        guard let value = try? JSONParser(maximumDepth: 4).parse(json), let object = value.objectValue else {
            throw AuthorizationInputError(.invalidJSON, "the request is not one JSON object")
        }
        try self.init(jsonObject: object)
    }

    /// Reads the members of a `POST /v1/authorize` body.
    public init(jsonObject object: [String: JSONValue]) throws(AuthorizationInputError) {
        let reader = JSONMembers(object)
        guard let app = try reader.string("app"), BundleIdentifier.isValid(app) else {
            throw AuthorizationInputError(.invalidField, "app must be a bundle identifier ([A-Za-z0-9.-], 1-255)")
        }
        var url: URL?
        if let text = try reader.string("url") {
            guard text.utf8.count <= Self.maximumURLBytes, let parsed = URL(string: text), parsed.scheme != nil else {
                throw AuthorizationInputError(.invalidField, "url must be an absolute URL of at most 8 KiB")
            }
            url = parsed
        }
        let method = try reader.string("method") ?? "GET"
        guard HTTPRequest.Method(method) != nil, method.utf8.count <= 16 else {
            throw AuthorizationInputError(.invalidField, "method is not an HTTP method")
        }
        self.init(
            url: url, httpMethod: method.uppercased(), httpHeaders: try Self.headers(reader.object("headers")),
            httpBody: Array((try reader.string("body") ?? "").utf8), realm: try reader.string("realm"),
            callerBundleIdentifier: app, isUserInterfaceEnabled: try reader.bool("ui") ?? true,
            operation: AuthorizationOperation(parsing: try reader.string("operation") ?? ""),
            authorizationOptions: try Self.options(reader.object("options")),
            isScreenLocked: try reader.bool("screen_locked") ?? false)
    }

    private static func headers(_ object: [String: JSONValue]?) throws(AuthorizationInputError) -> HTTPFields {
        var fields = HTTPFields()
        guard let object else { return fields }
        guard object.count <= maximumHeaderCount else {
            throw AuthorizationInputError(.tooLarge, "headers holds more than \(maximumHeaderCount) members")
        }
        for (name, value) in object.sorted(by: { $0.key < $1.key }) {
            guard let fieldName = HTTPField.Name(name), let text = value.stringValue,
                HTTPHeaderValue.isValid(text)
            else {
                throw AuthorizationInputError(.invalidField, "headers must map header names to header values")
            }
            fields.append(HTTPField(name: fieldName, value: text))
        }
        return fields
    }

    private static func options(_ object: [String: JSONValue]?) throws(AuthorizationInputError) -> [String: String] {
        guard let object else { return [:] }
        guard object.count <= 16 else { throw AuthorizationInputError(.tooLarge, "options holds too many members") }
        var options: [String: String] = [:]
        for (name, value) in object {
            switch value {
            case .string(let text): options[name] = text
            case .bool(let flag): options[name] = flag ? "true" : "false"
            default: throw AuthorizationInputError(.invalidField, "options must map names to strings or booleans")
            }
        }
        return options
    }
}

/// Typed access to the members of a JSON object, each wrong type refused with the member's name.
struct JSONMembers {
    let object: [String: JSONValue]

    init(_ object: [String: JSONValue]) {
        self.object = object
    }

    /// A string member; nil when absent or null.
    func string(_ name: String) throws(AuthorizationInputError) -> String? {
        switch object[name] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw AuthorizationInputError(.invalidField, "\(name) must be a string")
        }
    }

    /// A boolean member; nil when absent or null.
    func bool(_ name: String) throws(AuthorizationInputError) -> Bool? {
        switch object[name] {
        case nil, .null?: return nil
        case .bool(let flag)?: return flag
        default: throw AuthorizationInputError(.invalidField, "\(name) must be true or false")
        }
    }

    /// An object member; nil when absent or null.
    func object(_ name: String) throws(AuthorizationInputError) -> [String: JSONValue]? {
        switch object[name] {
        case nil, .null?: return nil
        case .object(let members)?: return members
        default: throw AuthorizationInputError(.invalidField, "\(name) must be an object")
        }
    }
}

/// What may stand in an HTTP header value: visible ASCII, spaces and tabs (RFC 9110 §5.5), no line breaks.
enum HTTPHeaderValue {
    static func isValid(_ text: String) -> Bool {
        text.utf8.count <= 8192 && text.utf8.allSatisfy { ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x09 }
    }

    /// Whether `text` is a token value that can go into a header as is: visible ASCII only.
    static func isVisibleASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }
}
