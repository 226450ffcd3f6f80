/// Runs provider exchanges under one deadline for all of them (the transport's own timeout is per request).
enum Deadline {
    /// Runs `operation`; throws `timed_out` when it has not finished within `timeout` (it is then cancelled).
    static func run(_ timeout: Duration, _ operation: @escaping @Sendable () async throws(OIDCError) -> Void)
        async throws(OIDCError)
    {
        let finished: Bool
        do {
            finished = try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask {
                    try await operation()
                    return true
                }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return false
                }
                defer { group.cancelAll() }
                return try await group.next() ?? false
            }
        } catch let error as OIDCError {
            throw error
        } catch {
            throw OIDCError(.timedOut, "the exchange with the provider was cancelled")
        }
        guard finished else {
            throw OIDCError(.timedOut, "the provider did not answer within \(timeout.components.seconds) s")
        }
    }
}
