import Hummingbird

/// Logs one line per request: method, path, status and milliseconds. The query string is never logged (it carries
/// codes, states and SAML messages), nor any header or body; the path is cut to 200 printable ASCII characters.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let log: @Sendable (String) -> Void

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            log(Self.line(request, status: response.status.code, since: start))
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            log(Self.line(request, status: status, since: start))
            throw error
        }
    }

    static func line(_ request: Request, status: Int, since start: ContinuousClock.Instant) -> String {
        let elapsed = ContinuousClock.now - start
        let milliseconds = elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
        return "\(request.method) \(printablePath(request.uri.path)) \(status) \(milliseconds)ms"
    }

    static func printablePath(_ path: String) -> String {
        let printable = path.unicodeScalars.prefix(200).map { $0.value > 0x20 && $0.value < 0x7F ? Character($0) : "?" }
        return String(printable)
    }
}
