import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// GET and POST over plain HTTP to 127.0.0.1 only, no proxy, no cache, each bounded by a 10 s timeout.
enum LoopbackHTTP {
    struct Answer {
        let status: Int
        let body: Data
        let contentType: String?
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    static func get(_ address: String) async throws -> Answer {
        try await send(URLRequest(url: loopbackURL(address)))
    }

    /// POSTs `fields` as `application/x-www-form-urlencoded`.
    static func post(_ address: String, form fields: [(String, String)]) async throws -> Answer {
        var request = URLRequest(url: try loopbackURL(address))
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(fields.map { "\(formEncode($0))=\(formEncode($1))" }.joined(separator: "&").utf8)
        return try await send(request)
    }

    private static func loopbackURL(_ address: String) throws -> URL {
        let url = try #require(URL(string: address))
        try #require(url.scheme == "http" && url.host == "127.0.0.1", "not a loopback URL: \(address)")
        return url
    }

    /// Every byte outside RFC 3986's unreserved set percent-encoded (so `+`, `/` and `=` of base64 survive).
    private static func formEncode(_ value: String) -> String {
        var unreserved = CharacterSet(charactersIn: "-._~")
        unreserved.formUnion(CharacterSet(charactersIn: "A"..."Z"))
        unreserved.formUnion(CharacterSet(charactersIn: "a"..."z"))
        unreserved.formUnion(CharacterSet(charactersIn: "0"..."9"))
        return value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    private static func send(_ request: URLRequest) async throws -> Answer {
        var request = request
        request.timeoutInterval = 10
        request.cachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        let configuration = URLSessionConfiguration.ephemeral
        configuration.connectionProxyDictionary = [:]
        configuration.timeoutIntervalForRequest = 10
        configuration.timeoutIntervalForResource = 10
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let (body, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return Answer(
            status: http.statusCode, body: body, contentType: http.value(forHTTPHeaderField: "Content-Type"))
    }
}
