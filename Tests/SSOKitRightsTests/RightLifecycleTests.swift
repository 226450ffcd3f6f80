import Foundation
import SSOKitConformance
import SSOKitCore
import SSOKitRights
import Testing

@Suite("Right lifecycle")
struct RightLifecycleTests {
    let cost = PassphraseCost.minimumForTests

    @Test("a passphrase right goes unknown → authorizing → authorized → notAuthorized, seen by both streams")
    func lifecycle() async throws {
        let requirement = RightRequirement.passphrase(
            try PassphraseRequirement(label: "login", passphrase: "correct horse", cost: cost))
        let authenticator = ScriptedAuthenticator(["correct horse"])
        let right = try Right(requirement: requirement, authenticator: authenticator)
        let all = RightChanges.stream()
        var updates = right.stateUpdates.makeAsyncIterator()
        #expect(right.state == .unknown)
        #expect(await updates.next() == .unknown)

        try await right.authorize(localizedReason: "sign in")
        #expect(right.state == .authorized)
        #expect(authenticator.requests.map(\.label) == ["login"])
        #expect(authenticator.requests.first?.localizedReason == "sign in")
        right.deauthorize()
        #expect(right.state == .notAuthorized)
        #expect(await updates.next() == .authorizing)
        #expect(await updates.next() == .authorized)
        #expect(await updates.next() == .notAuthorized)

        var seen: [RightState] = []
        for await change in all where change.rightID == right.id {
            seen.append(change.state)
            if seen.count == 3 { break }
        }
        #expect(seen == [.authorizing, .authorized, .notAuthorized])
    }

    @Test("a wrong passphrase is authorization_denied, a cancelled prompt is cancelled; both leave notAuthorized")
    func denied() async throws {
        let requirement = RightRequirement.passphrase(
            try PassphraseRequirement(label: "login", passphrase: "right one", cost: cost))
        let right = try Right(requirement: requirement, authenticator: ScriptedAuthenticator(["wrong one", nil]))
        await #expect(throws: RightError(.authorizationDenied, "")) {
            try await right.authorize(localizedReason: "test")
        }
        #expect(right.state == .notAuthorized)
        await #expect(throws: RightError(.cancelled, "")) { try await right.authorize(localizedReason: "test") }
        #expect(right.state == .notAuthorized)
    }

    @Test("any-of takes the first met requirement; all-of needs every one; evaluators see the reason")
    func combinations() async throws {
        let passphrase = try PassphraseRequirement(label: "pin", passphrase: "1234-5678", cost: cost)
        let yes = CustomRequirement(name: "yes") { $0.localizedReason == "open vault" }
        let no = CustomRequirement(name: "no") { _ in false }

        let anyOf = try Right(
            requirement: .anyOf([.custom(no), .passphrase(passphrase)]),
            authenticator: ScriptedAuthenticator(["1234-5678"]))
        try await anyOf.authorize(localizedReason: "open vault")
        #expect(anyOf.state == .authorized)

        let allOf = try Right(
            requirement: .allOf([.custom(yes), .passphrase(passphrase)]),
            authenticator: ScriptedAuthenticator(["1234-5678"]))
        try await allOf.authorize(localizedReason: "open vault")
        #expect(allOf.state == .authorized)

        let allOfFailing = try Right(
            requirement: .allOf([.passphrase(passphrase), .custom(no)]),
            authenticator: ScriptedAuthenticator(["1234-5678"]))
        await #expect(throws: RightError(.authorizationDenied, "")) {
            try await allOfFailing.authorize(localizedReason: "open vault")
        }
        let wrongReason = try Right(requirement: .custom(yes), authenticator: ScriptedAuthenticator([]))
        await #expect(throws: RightError(.authorizationDenied, "")) {
            try await wrongReason.authorize(localizedReason: "something else")
        }
    }

    @Test("malformed requirements are refused: empty any-of / all-of, too many alternatives, empty passphrase")
    func invalidRequirements() throws {
        let auth = ScriptedAuthenticator([])
        #expect(throws: RightError(.invalidRequirement, "")) { try Right(requirement: .anyOf([]), authenticator: auth) }
        #expect(throws: RightError(.invalidRequirement, "")) { try Right(requirement: .allOf([]), authenticator: auth) }
        let pair = RightRequirement.anyOf([
            .custom(CustomRequirement(name: "a") { _ in true }), .custom(CustomRequirement(name: "b") { _ in true }),
        ])
        // (a|b)^5 expands to 32 alternatives.
        #expect(throws: RightError(.invalidRequirement, "")) {
            try Right(requirement: .allOf(Array(repeating: pair, count: 5)), authenticator: auth)
        }
        #expect(throws: RightError(.invalidRequirement, "")) {
            try PassphraseRequirement(label: "x", passphrase: "", cost: cost)
        }
        #expect(throws: RightError(.invalidRequirement, "")) {
            try PassphraseRequirement(
                label: "x", passphrase: "p", cost: PassphraseCost(rounds: 1 << 24, blockSize: 8, parallelism: 1))
        }
    }

    @Test("the standard passphrase cost is scrypt N = 2^17, r = 8, p = 1 (128 MiB per guess), within the bounds")
    func standardCost() {
        #expect(PassphraseCost.standard == PassphraseCost(rounds: 1 << 17, blockSize: 8, parallelism: 1))
        #expect(PassphraseCost.standard.isAcceptable)
    }

    @Test("a deallocated authorized right reports notAuthorized and ends its stream")
    func deallocation() async throws {
        let all = RightChanges.stream()
        var right: Right? = try Right(
            requirement: .custom(CustomRequirement(name: "ok") { _ in true }), authenticator: ScriptedAuthenticator([]))
        let id = try #require(right?.id)
        let updates = try #require(right?.stateUpdates)
        try await right?.authorize(localizedReason: "test")
        right = nil
        var states: [RightState] = []
        for await state in updates { states.append(state) }
        #expect(states == [.unknown, .authorizing, .authorized, .notAuthorized])
        var last: RightState?
        for await change in all where change.rightID == id {
            last = change.state
            if change.state == .notAuthorized { break }
        }
        #expect(last == .notAuthorized)
    }

    @Test("failures back off, then lock for good at the limit; a locked right asks nothing")
    func attemptLimit() async throws {
        let clock = AdjustableClock()
        let policy = RightAttemptPolicy(freeAttempts: 2, baseDelay: 10, maximumDelay: 60, attemptLimit: 5)
        let authenticator = ScriptedAuthenticator(Array(repeating: "bad", count: 20))
        let right = try Right(
            requirement: .passphrase(try PassphraseRequirement(label: "p", passphrase: "good", cost: cost)),
            authenticator: authenticator, attemptPolicy: policy, clock: clock)
        for _ in 0..<3 {
            await #expect(throws: RightError(.authorizationDenied, "")) {
                try await right.authorize(localizedReason: "t")
            }
        }
        // The third failure started a 10 s backoff: nothing is asked during it.
        await #expect(throws: RightError(.lockedOut, "")) { try await right.authorize(localizedReason: "t") }
        #expect(authenticator.requests.count == 3)
        clock.advance(11)
        await #expect(throws: RightError(.authorizationDenied, "")) { try await right.authorize(localizedReason: "t") }
        clock.advance(19)
        await #expect(throws: RightError(.lockedOut, "")) { try await right.authorize(localizedReason: "t") }
        clock.advance(2)
        await #expect(throws: RightError(.authorizationDenied, "")) { try await right.authorize(localizedReason: "t") }
        #expect(authenticator.requests.count == 5)
        clock.advance(100_000)
        await #expect(throws: RightError(.lockedOut, "")) { try await right.authorize(localizedReason: "t") }
        #expect(authenticator.requests.count == 5)
    }
}
