import Foundation
import Hummingbird
import Logging

/// The framework's ceiling for `Benchmarks/serve-load.sh`: a Hummingbird 2 server on loopback TCP whose
/// `POST /v1/authorize` reads the request body (as the app API does) and answers a constant 200 with a small JSON
/// body. It prints `READY http://HOST:PORT` once listening and runs until SIGTERM or SIGINT.
///
/// Usage: `HummingbirdCeiling [PORT]` (0, the default, picks a free port).
@main
struct HummingbirdCeiling {
    static let answer = #"{"result":"http_response","status":200,"headers":{},"body":"{}","interaction":null}"#

    static func main() async throws {
        let port = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 0
        var logger = Logger(label: "hummingbird-ceiling")
        logger.logLevel = .warning
        let router = Router()
        router.post("/v1/authorize") { request, _ -> Response in
            _ = try await request.body.collect(upTo: 64 * 1024)
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: answer)))
        }
        let application = Application(
            router: router,
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: port), serverName: nil),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? port
                FileHandle.standardOutput.write(Data("READY http://127.0.0.1:\(bound)\n".utf8))
            }, logger: logger)
        try await application.runService()
    }
}
