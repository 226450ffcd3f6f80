import Foundation
import HTTPTypes

/// Requests for driving the in-memory IdP by hand in tests.
enum HTTPRequestFactory {
    static func get(_ url: URL) -> HTTPRequest {
        request(.get, url)
    }

    static func post(_ url: URL) -> HTTPRequest {
        request(.post, url)
    }

    private static func request(_ method: HTTPRequest.Method, _ url: URL) -> HTTPRequest {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        var path = components?.percentEncodedPath ?? "/"
        if let query = components?.percentEncodedQuery { path += "?" + query }
        return HTTPRequest(
            method: method, scheme: url.scheme,
            authority: url.host.map { host in url.port.map { "\(host):\($0)" } ?? host },
            path: path)
    }
}
