import Foundation
import HTTPTypes
import SSOKitCore
import SSOKitOIDC

extension AuthorizationResult {
    /// The object `ssokit authorize` prints and `POST /v1/authorize` returns (CLI-CONTRACT.md): `result`, `status`,
    /// `headers`, `body`, `interaction` and `error`, each null when it does not apply.
    public var jsonObject: [String: JSONValue] {
        var object: [String: JSONValue] = [
            "result": .string(kind), "status": .null, "headers": .null, "body": .null, "interaction": .null,
            "error": .null,
        ]
        switch self {
        case .httpResponse(let response):
            object["status"] = .integer(Int64(response.status))
            object["headers"] = Self.headerObject(response.headerFields)
            if !response.body.isEmpty { object["body"] = .string(String(decoding: response.body, as: UTF8.self)) }
        case .authorizationHeaders(let fields):
            object["headers"] = Self.headerObject(fields)
        case .doNotHandle:
            break
        case .needsInteraction(let interaction):
            object["interaction"] = interaction.jsonObject
        case .failure(let failure):
            object["error"] = .object([
                "code": .string(failure.code.description), "reason": .string(failure.reason.name),
                "message": .string(failure.message),
            ])
        }
        return object
    }

    /// `jsonObject` as compact JSON text (members sorted).
    public var jsonText: String { JSONValue.object(jsonObject).jsonText }

    /// Headers as one object; a name that repeats has its values joined with `, `.
    private static func headerObject(_ fields: HTTPFields) -> JSONValue {
        var members: [String: JSONValue] = [:]
        for field in fields {
            let name = field.name.rawName
            if case .string(let earlier)? = members[name] {
                members[name] = .string(earlier + ", " + field.value)
            } else {
                members[name] = .string(field.value)
            }
        }
        return .object(members)
    }
}

extension Interaction {
    /// `{"id", "kind", "url", "fields"}`, as in the contract.
    public var jsonObject: JSONValue {
        switch kind {
        case .credentials(let fields):
            .object([
                "id": .string(id), "kind": .string("credentials"), "url": .null,
                "fields": .array(fields.map { .string($0.name) }),
            ])
        case .browser(let url):
            .object([
                "id": .string(id), "kind": .string("browser"), "url": .string(url.absoluteString), "fields": .null,
            ])
        }
    }
}
