import ServiceLifecycle
import UnixSignals

/// Runs `reload` on each SIGHUP until the service group shuts down (a profile reload, as daemons do).
struct SignalReloadService: Service {
    let reload: @Sendable () async -> Void

    func run() async throws {
        let signals = await UnixSignalsSequence(trapping: .sighup)
        for await _ in signals.cancelOnGracefulShutdown() {
            await reload()
        }
    }
}
