import Foundation
import PostgresTestSupport
import Testing

/// Two `ssokit serve --postgres` instances on one PostgreSQL database (issue 13 §4, "Beyond one machine"), against
/// the mock provider: a login through one is single sign-on through the other; an interaction started on one is
/// resumed on the other by the same caller; and `kill -9` of one instance while its refresh grant is on its way to
/// a slow token endpoint loses no cache entry and spends no refresh token twice: the other instance's refresh, held
/// back by the entry's lock until the kill, succeeds with the same refresh token, which reaches the provider once.
@Suite(.serialized)
struct ScaleOutEndToEndTests {
    static let user = "alice@example.com"
    let folder: URL

    init() throws {
        // A short path: a Unix socket's path holds at most 107 bytes.
        folder = URL(fileURLWithPath: "/tmp").appendingPathComponent("scale-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func socket(_ name: String) -> String { folder.appendingPathComponent("\(name).sock").path }

    /// `ssokit serve` NAME on its own socket, sharing the database at `url` and the cache key (one config folder).
    func serve(_ name: String, postgres url: String, profile: String, registry: String) async throws -> ServeProcess {
        try await ServeProcess(
            ["--profile", profile, "--socket", socket(name), "--registry", registry, "--postgres", url],
            folder: folder, name: name)
    }

    func authorize(_ name: String, _ app: String, _ issuer: String, operation: String) async throws
        -> SocketHTTP.Answer
    {
        try await SocketHTTP.post(
            socket(name), "/v1/authorize",
            body: #"{"app": "\#(app)", "operation": "\#(operation)", "url": "\#(issuer)/oauth2/authorize"}"#,
            timeout: 60)
    }

    func resume(_ name: String, _ id: String) async throws -> SocketHTTP.Answer {
        try await SocketHTTP.post(
            socket(name), "/v1/interactions/\(id)", body: #"{"username": "\#(Self.user)", "password": "unused"}"#)
    }

    static func accessToken(_ answer: SocketHTTP.Answer) -> String? {
        (answer.json?["body"] as? String).flatMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["access_token"] as? String
        }
    }

    /// The provider's log of refresh grants (`op.py --refresh-delay`).
    static func refreshes(_ provider: MockProvider) async throws -> [[String: Any]] {
        try await HTTPProbe.send(provider.issuer + "/test/refreshes").body as? [[String: Any]] ?? []
    }

    /// Waits at most `seconds` for `condition`.
    static func eventually(_ seconds: Int, _ condition: () async throws -> Bool) async rethrows -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return try await condition()
    }

    @Test func singleSignOnInteractionsAndAKilledRefreshAcrossTwoInstances() async throws {
        // Tokens that live 65 s: within the cache's 60 s leeway after 5 s, when a `refresh` goes to the provider,
        // whose refresh grants take 6 s to arrive.
        let provider = try await MockProvider(extraArguments: [
            "--session-lifetime", "300", "--token-max-age", "65", "--refresh-delay", "6",
        ])
        defer {
            provider.stop()
            try? FileManager.default.removeItem(at: folder)
        }
        let issuer = provider.issuer
        try Data((CLIWorkspace.secret + "\n").utf8).write(to: folder.appendingPathComponent("client-secret.txt"))
        let profile = folder.appendingPathComponent("profile.json")
        try Data(
            """
            {"PayloadContent": [\(AdapterWorkspace.oidcPayload(
                "e2e.scale.oidc", issuer: issuer, routes: #""URLs": ["\#(issuer)/oauth2/authorize"]"#))]}
            """.utf8
        ).write(to: profile)
        let registry = folder.appendingPathComponent("registry.json")
        try Data(
            #"{"uids": {"\#(getuid())": ["com.example.mail", "com.example.notes", "com.example.calendar"]}}"#.utf8
        ).write(to: registry)

        try await PostgresTestServer.withDatabase { url in
            let a = try await serve("a", postgres: url, profile: profile.path, registry: registry.path)
            let b = try await serve("b", postgres: url, profile: profile.path, registry: registry.path)
            let c = try await serve("c", postgres: url, profile: profile.path, registry: registry.path)

            // A login through A: the provider's form, answered through A's interaction route.
            let started = try await authorize("a", "com.example.mail", issuer, operation: "login")
            #expect(started.result == "needs_interaction", "\(started.body)")
            let id = try #require((started.json?["interaction"] as? [String: Any])?["id"] as? String)
            let login = try await resume("a", id)
            let loggedIn = ContinuousClock.now
            try #require(login.result == "http_response", "\(login.body)")
            let first = try #require(Self.accessToken(login))

            // Single sign-on through B: another app, no interaction, the provider's session that A keeps.
            let sso = try await authorize("b", "com.example.notes", issuer, operation: "login")
            #expect(sso.result == "http_response", "\(sso.body)")
            #expect(sso.json?["interaction"] is NSNull)
            let sessions = try await HTTPProbe.send(issuer + "/test/sessions").body as? [String: Int]
            #expect(sessions?["form_logins"] == 1 && sessions?["cookie_logins"] == 1, "\(sessions ?? [:])")

            // An interaction started on B (the provider's session ended) is resumed on A by the same caller.
            _ = try await HTTPProbe.send(issuer + "/test/sessions/revoke", form: [:])
            let pending = try await authorize("b", "com.example.calendar", issuer, operation: "login")
            #expect(pending.result == "needs_interaction", "\(pending.body)")
            let pendingID = try #require((pending.json?["interaction"] as? [String: Any])?["id"] as? String)
            let resumed = try await resume("a", pendingID)
            #expect(resumed.result == "http_response", "\(resumed.body)")
            let again = try await resume("b", pendingID)
            #expect(again.status == 404, "an interaction is resumed once, whichever instance is asked")

            // A refresh through A: its grant is on its way to the provider (held 6 s) while A holds the entry.
            try await Task.sleep(until: loggedIn + .milliseconds(5500))
            let aRefresh = Task { try? await authorize("a", "com.example.mail", issuer, operation: "refresh") }
            #expect(try await Self.eventually(20) { try await Self.refreshes(provider).count == 1 })
            // B's refresh of the same entry waits for A's lock; then A dies before its grant arrives.
            let bRefresh = Task { try await authorize("b", "com.example.mail", issuer, operation: "refresh") }
            try await Task.sleep(for: .milliseconds(500))
            #expect(try await Self.refreshes(provider).count == 1, "B does not present the refresh token meanwhile")
            a.send(SIGKILL)
            #expect(await Self.eventually(10) { !a.isRunning })
            _ = await aRefresh.value

            let refreshed = try await bRefresh.value
            #expect(refreshed.result == "http_response", "\(refreshed.body)")
            let second = try #require(Self.accessToken(refreshed))
            #expect(second != first)
            let log = try await Self.refreshes(provider)
            #expect(log.map { $0["outcome"] as? String } == ["dropped", "forwarded"], "\(log)")
            #expect(Set(log.compactMap { $0["token"] as? String }).count == 1, "the same refresh token, once spent")
            #expect(log.last?["status"] as? Int == 200)

            // The entry B refreshed is the shared one: a third instance answers from it, with no grant.
            let cached = try await authorize("c", "com.example.mail", issuer, operation: "refresh")
            #expect(Self.accessToken(cached) == second, "\(cached.body)")
            #expect(try await Self.refreshes(provider).count == 2)
            #expect(await b.stop() == 0)
            #expect(await c.stop() == 0)
        }
    }
}
