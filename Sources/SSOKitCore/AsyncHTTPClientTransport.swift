import AsyncHTTPClient
import HTTPTypes
import NIOCore
import NIOHTTP1

/// An ``HTTPTransport`` on AsyncHTTPClient: redirects are never followed, every request has a deadline, and
/// response bodies are collected up to a cap.
public final class AsyncHTTPClientTransport: HTTPTransport {
    /// Limits applied to every request.
    public struct Configuration: Sendable {
        /// The deadline for a whole request, connect to last body byte.
        public var timeout: TimeAmount
        /// The largest response body accepted, in bytes.
        public var maximumResponseBytes: Int

        /// Creates limits; the defaults suit discovery, JWKS and token endpoints.
        public init(timeout: TimeAmount = .seconds(10), maximumResponseBytes: Int = 1 << 20) {
            self.timeout = timeout
            self.maximumResponseBytes = maximumResponseBytes
        }
    }

    private let client: HTTPClient
    private let ownsClient: Bool
    private let configuration: Configuration

    /// Creates a transport with its own HTTP client that follows no redirects; call ``shutdown()`` when done.
    public init(configuration: Configuration = .init()) {
        var clientConfiguration = HTTPClient.Configuration()
        clientConfiguration.redirectConfiguration = .disallow
        clientConfiguration.timeout = .init(connect: configuration.timeout, read: configuration.timeout)
        self.client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: clientConfiguration)
        self.ownsClient = true
        self.configuration = configuration
    }

    /// Wraps an existing client; the caller keeps its lifecycle and must configure it to follow no redirects.
    public init(client: HTTPClient, configuration: Configuration = .init()) {
        self.client = client
        self.ownsClient = false
        self.configuration = configuration
    }

    /// Shuts the owned client down; a no-op for a wrapped client.
    public func shutdown() async throws {
        if ownsClient { try await client.shutdown() }
    }

    /// Sends a request and collects its response body up to the configured cap.
    public func send(_ request: HTTPRequest, body: [UInt8]?) async throws -> HTTPTransportResponse {
        guard let scheme = request.scheme, let authority = request.authority else {
            throw HTTPTransportError(.invalidRequest, "the request has no scheme or authority")
        }
        var outgoing = HTTPClientRequest(url: "\(scheme)://\(authority)\(request.path ?? "/")")
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        for field in request.headerFields {
            outgoing.headers.add(name: field.name.rawName, value: field.value)
        }
        if let body {
            outgoing.body = .bytes(ByteBuffer(bytes: body))
        }
        let incoming: HTTPClientResponse
        // One deadline from the first byte sent to the last byte read: a body trickled slowly ends with it too.
        let deadline = NIODeadline.now() + configuration.timeout
        do {
            incoming = try await client.execute(outgoing, deadline: deadline)
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout {
            throw HTTPTransportError(.timeout, "the request to \(authority) timed out")
        } catch {
            throw HTTPTransportError(.connectionFailed, "the request to \(authority) failed: \(type(of: error))")
        }
        let collected: ByteBuffer
        do {
            collected = try await Self.collect(incoming, upTo: configuration.maximumResponseBytes, before: deadline)
        } catch let error as HTTPTransportError where error.code == .timeout {
            throw HTTPTransportError(.timeout, "the response from \(authority) did not finish in time")
        } catch is NIOTooManyBytesError {
            throw HTTPTransportError(
                .responseTooLarge, "the response from \(authority) exceeds \(configuration.maximumResponseBytes) bytes")
        } catch {
            throw HTTPTransportError(.connectionFailed, "reading the response from \(authority) failed")
        }
        var response = HTTPResponse(status: .init(code: Int(incoming.status.code)))
        for header in incoming.headers {
            if let name = HTTPField.Name(header.name) {
                response.headerFields.append(HTTPField(name: name, value: header.value))
            }
        }
        return HTTPTransportResponse(response: response, body: Array(collected.readableBytesView))
    }

    /// The body of `response`, or a `timeout` failure when its last byte has not come by `deadline`.
    private static func collect(_ response: HTTPClientResponse, upTo limit: Int, before deadline: NIODeadline)
        async throws -> ByteBuffer
    {
        try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
            group.addTask { try await response.body.collect(upTo: limit) }
            group.addTask {
                let remaining = deadline - NIODeadline.now()
                try await Task.sleep(for: .nanoseconds(max(0, remaining.nanoseconds)))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let body = first else {
                throw HTTPTransportError(.timeout, "the response body did not finish in time")
            }
            return body
        }
    }
}
