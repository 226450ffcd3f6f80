import JWTKit
import SSOKitCore
import SSOKitOIDC

/// A JWT payload made of arbitrary JSON claims, so that jwt-kit signs exactly the claims the IdP chose.
struct JSONClaims: JWTPayload {
    let members: [String: JSONValue]

    init(_ members: [String: JSONValue]) { self.members = members }

    init(from decoder: any Decoder) throws {
        guard case .object(let members) = try Self.decode(decoder.singleValueContainer()) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not an object"))
        }
        self.members = members
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(EncodableValue(.object(members)))
    }

    /// Expiry and the rest are the verifier's business; the IdP only signs.
    func verify(using algorithm: some JWTAlgorithm) throws {}

    private static func decode(_ container: any SingleValueDecodingContainer) throws -> JSONValue {
        if container.decodeNil() { return .null }
        if let value = try? container.decode(Bool.self) { return .bool(value) }
        if let value = try? container.decode(Int64.self) { return .integer(value) }
        if let value = try? container.decode(Double.self) { return .number(value) }
        if let value = try? container.decode(String.self) { return .string(value) }
        if let value = try? container.decode([DecodableValue].self) { return .array(value.map(\.value)) }
        return .object(try container.decode([String: DecodableValue].self).mapValues(\.value))
    }

    private struct DecodableValue: Decodable {
        let value: JSONValue
        init(from decoder: any Decoder) throws { value = try JSONClaims.decode(decoder.singleValueContainer()) }
    }

    private struct EncodableValue: Encodable {
        let value: JSONValue
        init(_ value: JSONValue) { self.value = value }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch value {
            case .null: try container.encodeNil()
            case .bool(let bool): try container.encode(bool)
            case .integer(let integer): try container.encode(integer)
            case .number(let number): try container.encode(number)
            case .string(let string): try container.encode(string)
            case .array(let elements): try container.encode(elements.map(EncodableValue.init))
            case .object(let members): try container.encode(members.mapValues(EncodableValue.init))
            }
        }
    }
}
