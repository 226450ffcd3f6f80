import SSOKitCore

/// Runs a body with an AsyncHTTPClient transport and shuts it down afterwards, on success or failure.
enum HTTPSession {
    static func with<T>(_ body: (any HTTPTransport) async throws -> T) async throws -> T {
        let transport = AsyncHTTPClientTransport()
        do {
            let result = try await body(transport)
            try? await transport.shutdown()
            return result
        } catch {
            try? await transport.shutdown()
            throw error
        }
    }
}
