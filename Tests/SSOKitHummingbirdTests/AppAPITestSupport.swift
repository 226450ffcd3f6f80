import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import SSOKitConformance
import SSOKitCore
import SSOKitExtension
import SSOKitHummingbird
import SSOKitOIDC
import SSOKitProxy
import SSOKitTesting

/// The app API over a real adapter (``AdapterHarness``: an in-memory IdP and token cache), in a router whose test
/// callers are named by the header `x-test-uid` (as a Unix socket's peer uid would name them); without it, the
/// connection identifies no one.
struct AppAPIFixture {
    static let callerHeader = HTTPField.Name("x-test-uid")!

    let harness: AdapterHarness
    let slot: AdapterSlot
    let application: Application<RouterResponder<AppAPIRequestContext>>

    init(
        registry: CallerRegistry = AppAPIFixture.registry, autoConfig: ProxyAutoConfig? = nil,
        harness: AdapterHarness? = nil
    ) throws {
        let harness = try harness ?? AdapterHarness(payloads: [AdapterHarness.oidcPayload()])
        self.harness = harness
        slot = AdapterSlot(harness.adapter)
        let router = Router(context: AppAPIRequestContext.self)
        AppAPI(
            adapter: slot, registry: registry, owners: InteractionOwners(cache: harness.cache, clock: harness.clock),
            identification: CallerIdentification { request, _ in
                request.headers[Self.callerHeader].flatMap { UInt32($0) }.map { .localUser(uid: $0) }
            }, autoConfig: { autoConfig }
        ).addRoutes(to: router)
        application = Application(router: router)
    }

    /// uid 1000 may act as `com.example.mail` and `com.example.notes`; uid 1001 as `com.example.other`.
    static var registry: CallerRegistry {
        var registry = CallerRegistry()
        registry.grant(.applications(["com.example.mail", "com.example.notes"]), to: .localUser(uid: 1000))
        registry.grant(.applications(["com.example.other"]), to: .localUser(uid: 1001))
        return registry
    }

    /// The IdP user's credentials as the body of `POST /v1/interactions/ID`.
    var credentialsBody: String {
        JSONValue.object(["username": .string(harness.idp.username), "password": .string(harness.idp.password)])
            .jsonText
    }
}

/// One exchange's outcome: status and the body as a JSON object.
struct APIAnswer {
    let status: HTTPResponse.Status
    let text: String
    let headers: HTTPFields

    var object: [String: JSONValue] { (try? JSONParser().parse(Array(text.utf8)))?.objectValue ?? [:] }
    var result: String? { object["result"]?.stringValue }
    var error: String? { object["error"]?.stringValue }
    var interactionID: String? { object["interaction"]?.objectValue?["id"]?.stringValue }
    var status200Body: [String: JSONValue]? {
        guard let body = object["body"]?.stringValue else { return nil }
        return (try? JSONParser().parse(Array(body.utf8)))?.objectValue
    }
}

extension TestClientProtocol {
    /// POSTs `body` to `uri` as uid `uid` (nil: an unidentified connection).
    func post(_ uri: String, uid: UInt32?, body: String) async throws -> APIAnswer {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let uid { headers[AppAPIFixture.callerHeader] = String(uid) }
        return try await execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: body)) {
            APIAnswer(status: $0.status, text: String(buffer: $0.body), headers: $0.headers)
        }
    }

    /// GETs `uri`.
    func get(_ uri: String) async throws -> APIAnswer {
        try await execute(uri: uri, method: .get) {
            APIAnswer(status: $0.status, text: String(buffer: $0.body), headers: $0.headers)
        }
    }
}

/// A `POST /v1/authorize` body.
func authorizeBody(app: String, operation: String = "login", ui: Bool = true) -> String {
    JSONValue.object([
        "app": .string(app), "operation": .string(operation), "url": .string("https://idp.test/authorize"),
        "ui": .bool(ui),
    ]).jsonText
}
