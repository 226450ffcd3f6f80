import Foundation
import HTTPTypes
import SSOKitCore

/// The HTTP exchanges SSOKitOIDC makes with a provider, with uniform error mapping.
enum ProviderHTTP {
    static func request(_ method: HTTPRequest.Method, _ url: URL) throws(OIDCError) -> HTTPRequest {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false), let scheme = components.scheme,
            let host = components.host
        else { throw OIDCError(.invalidRequest, "the endpoint URL is not absolute") }
        let authority = components.port.map { "\(host):\($0)" } ?? host
        var path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { path += "?" + query }
        var request = HTTPRequest(method: method, scheme: scheme, authority: authority, path: path)
        request.headerFields[.accept] = "application/json"
        return request
    }

    static func send(
        _ request: HTTPRequest, body: [UInt8]?, transport: any HTTPTransport, failure: OIDCError.Code
    ) async throws(OIDCError) -> HTTPTransportResponse {
        do {
            return try await transport.send(request, body: body)
        } catch let error as HTTPTransportError {
            throw OIDCError(failure, "HTTP exchange with \(request.authority ?? "the provider") failed: \(error.code)")
        } catch {
            throw OIDCError(failure, "HTTP exchange with \(request.authority ?? "the provider") failed")
        }
    }

    /// GETs `url` and returns the body of a 200 response.
    static func get(_ url: URL, transport: any HTTPTransport, failure: OIDCError.Code) async throws(OIDCError)
        -> [UInt8]
    {
        let response = try await send(try request(.get, url), body: nil, transport: transport, failure: failure)
        guard response.response.status.code == 200 else {
            throw OIDCError(failure, "\(url.host ?? "the provider") answered HTTP \(response.response.status.code)")
        }
        return response.body
    }

    /// Parses a JSON object body.
    static func jsonObject(_ body: [UInt8], failure: OIDCError.Code, what: String) throws(OIDCError) -> [String:
        JSONValue]
    {
        guard let value = try? JSONParser().parse(body), let object = value.objectValue else {
            throw OIDCError(failure, "the \(what) is not a JSON object")
        }
        return object
    }
}
