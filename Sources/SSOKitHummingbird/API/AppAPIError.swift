import HTTPTypes
import Hummingbird
import NIOCore
import SSOKitExtension
import SSOKitOIDC

/// A refusal of the app API: a 4xx status and the body `{"error": "<snake_case>", "message": "..."}`. Messages
/// describe the request's shape, never its values: no token, code, password or cookie can end up in one.
public struct AppAPIError: Error, Sendable, Hashable {
    /// The HTTP status.
    public let status: HTTPResponse.Status
    /// A stable snake_case code.
    public let code: String
    /// What is wrong, for people.
    public let message: String

    /// A refusal.
    public init(_ status: HTTPResponse.Status, _ code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    /// 413: the body is over the cap.
    static func tooLarge(_ limit: Int) -> AppAPIError {
        AppAPIError(
            .contentTooLarge, AuthorizationInputError.Code.tooLarge.description, "the body is over \(limit) bytes")
    }

    /// 403: the connection proves no identity the API knows.
    static let callerNotIdentified = AppAPIError(
        .forbidden, "caller_not_identified", "this connection does not identify its caller (use the Unix socket)")
    /// 403: the body names an app the connection may not act as.
    static let appNotPermitted = AppAPIError(
        .forbidden, "app_not_permitted", "this connection may not act as the app the request names")
    /// 403: an operation only the system performs.
    static let operationNotPermitted = AppAPIError(
        .forbidden, "operation_not_permitted",
        "configurationRemoved is the system's operation; the server performs it when a reload drops a payload")
    /// 404: no pending interaction with this ID for this caller (unknown, used, expired, or someone else's).
    static let interactionNotFound = AppAPIError(
        .notFound, "interaction_not_found", "no pending interaction with this ID for this caller")
    /// 400: the body could not be read.
    static let bodyUnreadable = AppAPIError(.badRequest, "body_unreadable", "the body could not be read")

    /// The refusal for a body the adapter's JSON readers rejected.
    init(_ error: AuthorizationInputError) {
        let status: HTTPResponse.Status = error.code == .tooLarge ? .contentTooLarge : .badRequest
        self.init(status, error.code.description, error.message)
    }

    /// The response.
    public var response: Response {
        JSONResponse.make(
            status: status, .object(["error": .string(code), "message": .string(message)]))
    }
}

/// JSON answers of the app API: `application/json`, never cached.
enum JSONResponse {
    static func make(status: HTTPResponse.Status = .ok, _ value: JSONValue) -> Response {
        make(status: status, text: value.jsonText)
    }

    static func make(status: HTTPResponse.Status = .ok, text: String) -> Response {
        var fields = HTTPFields()
        fields[.contentType] = "application/json"
        fields[.cacheControl] = "no-store"
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
