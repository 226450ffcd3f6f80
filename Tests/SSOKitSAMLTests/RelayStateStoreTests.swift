import Foundation
import SSOKitCore
import SSOKitSAML
import Testing

/// A clock the test moves forward.
private final class SteppingClock: SSOKitClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_767_225_600)
    var now: Date { lock.withLock { current } }
    func advance(_ seconds: TimeInterval) { lock.withLock { current = current.addingTimeInterval(seconds) } }
}

@Suite("RelayStateStore")
struct RelayStateStoreTests {
    @Test("keys are short and unique, values come back once, and expire")
    func lifecycle() async throws {
        let clock = SteppingClock()
        let store = RelayStateStore<String>(lifetime: 60, clock: clock)
        let key = try await store.put("_request-1")
        #expect(key.utf8.count == 22)
        #expect(key.utf8.count <= RedirectBinding.maximumRelayStateBytes)
        #expect(try await store.put("_request-2") != key)
        #expect(await store.take(key) == "_request-1")
        #expect(await store.take(key) == nil)
        let late = try await store.put("_request-3")
        clock.advance(61)
        #expect(await store.take(late) == nil)
        #expect(await store.take("guessed") == nil)
    }

    @Test("a full store refuses new entries rather than evicting live ones, and sweeps expired ones")
    func capacity() async throws {
        let clock = SteppingClock()
        let store = RelayStateStore<Int>(lifetime: 60, capacity: 2, clock: clock)
        let first = try await store.put(1)
        _ = try await store.put(2)
        await #expect(throws: SAMLError(.tooLarge, "")) { try await store.put(3) }
        #expect(await store.take(first) == 1)
        _ = try await store.put(4)
        clock.advance(61)
        _ = try await store.put(5)
        #expect(await store.count == 1)
    }
}
