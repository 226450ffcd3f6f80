import Synchronization

/// How many IdP requests one API request caused: set as a task-local by the routes, incremented by
/// ``MeteredTransport``, so that an answer that needed none counts as a cache hit.
final class IdPExchangeCount: Sendable {
    @TaskLocal static var current: IdPExchangeCount?

    private let count = Atomic<Int>(0)

    var value: Int { count.load(ordering: .relaxed) }

    func increment() {
        count.add(1, ordering: .relaxed)
    }
}
