import Hummingbird
import Logging
import ServiceLifecycle

/// A Hummingbird server on a free port of 127.0.0.1, started and stopped from code.
struct LoopbackWebServer: Sendable {
    let port: Int
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    /// Starts serving `router`; returns once the port is bound.
    static func start(_ router: Router<BasicRequestContext>) async throws -> LoopbackWebServer {
        let quiet = Logger(label: "ssokit.demo", factory: { _ in SwiftLogNoOpLogHandler() })
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let application = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            }, logger: quiet)
        let group = ServiceGroup(configuration: .init(services: [application], logger: quiet))
        let task = Task {
            defer { continuation.finish() }
            try await group.run()
        }
        var bound = 0
        for await port in ports { bound = port }
        guard bound > 0 else {
            task.cancel()
            throw DemoError("the web apps' server did not start on 127.0.0.1")
        }
        return LoopbackWebServer(port: bound, group: group, task: task)
    }

    func shutdown() async {
        await group.triggerGracefulShutdown()
        _ = await task.result
    }
}
