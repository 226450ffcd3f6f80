import Foundation
import HTTPTypes
import SSOKitCore
import Synchronization

/// An `HTTPTransport` that answers from a handler in the process and records every request, for tests.
public final class InMemoryHTTPTransport: HTTPTransport {
    /// A request as the transport received it.
    public struct RecordedRequest: Sendable {
        /// The request head.
        public var request: HTTPRequest
        /// The body, if any.
        public var body: [UInt8]?

        /// The request's `scheme://authority/path` without query.
        public var urlWithoutQuery: String {
            let path = request.path ?? "/"
            let bare = path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? path
            return "\(request.scheme ?? "")://\(request.authority ?? "")\(bare)"
        }

        /// The body decoded as form parameters.
        public var formParameters: [String: String] {
            guard let body, let pairs = FormURLEncoding.decode(String(decoding: body, as: UTF8.self)) else {
                return [:]
            }
            return Dictionary(pairs, uniquingKeysWith: { first, _ in first })
        }
    }

    /// Produces the response for a request.
    public typealias Handler = @Sendable (RecordedRequest) async throws -> HTTPTransportResponse

    private let handler: Handler
    private let recorded = Mutex<[RecordedRequest]>([])

    /// Creates a transport that answers with `handler`.
    public init(handler: @escaping Handler) {
        self.handler = handler
    }

    /// Creates a transport that serves fixed bodies by `scheme://host/path` and answers 404 otherwise.
    public convenience init(routes: [String: HTTPTransportResponse]) {
        self.init { request in
            routes[request.urlWithoutQuery] ?? .init(response: .init(status: .notFound), body: [])
        }
    }

    /// Every request so far, in order.
    public var requests: [RecordedRequest] {
        recorded.withLock { $0 }
    }

    /// Records and answers a request.
    public func send(_ request: HTTPRequest, body: [UInt8]?) async throws -> HTTPTransportResponse {
        let entry = RecordedRequest(request: request, body: body)
        recorded.withLock { $0.append(entry) }
        return try await handler(entry)
    }
}

extension HTTPTransportResponse {
    /// A JSON response with the given status.
    public static func json(_ text: String, status: HTTPResponse.Status = .ok) -> HTTPTransportResponse {
        var response = HTTPResponse(status: status)
        response.headerFields[.contentType] = "application/json"
        return HTTPTransportResponse(response: response, body: Array(text.utf8))
    }
}
