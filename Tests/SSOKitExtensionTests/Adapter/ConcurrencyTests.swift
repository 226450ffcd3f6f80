import Foundation
import HTTPTypes
import SSOKitConformance
import SSOKitExtension
import Testing

/// Requests from many apps at once: each app's tokens stay its own.
@Suite struct ConcurrencyTests {
    enum Kind: CaseIterable { case refresh, login, challenge }

    @Test func twoHundredConcurrentRequestsFromTwentyAppsNeverCrossApps() async throws {
        let harness = try AdapterHarness(payloads: [
            AdapterHarness.oidcPayload(extra: #", "AppBlockList": ["com.example.denied"]"#),
            AdapterHarness.oidcPayload(
                "test.credential", type: "Credential", routes: #""Hosts": [".api.test"]"#,
                extra: #", "AppBlockList": ["com.example.denied"]"#),
        ])
        let apps = (0..<20).map { "com.example.app\($0)" }
        // Half the apps hold tokens already; the other half log in silently (IdP session) during the burst.
        for app in apps.prefix(10) { #expect(await harness.login(app).response?.status == 200) }

        let adapter = harness.adapter
        let outcomes = await withTaskGroup(of: (String, AuthorizationResult).self) { group in
            for index in 0..<200 {
                let app = index % 25 == 24 ? "com.example.denied" : apps[index % 20]
                let kind = Kind.allCases[index % 3]
                group.addTask {
                    switch kind {
                    case .refresh:
                        return (app, await adapter.authorize(harness.operation(.refresh, app: app, ui: false)))
                    case .login: return (app, await adapter.authorize(harness.operation(.login, app: app, ui: false)))
                    case .challenge:
                        var fields = HTTPFields()
                        fields[.wwwAuthenticate] = "Bearer"
                        return (
                            app,
                            await adapter.authorize(
                                AuthorizationRequest(
                                    url: URL(string: "https://x.api.test/"), httpHeaders: fields,
                                    callerBundleIdentifier: app, isUserInterfaceEnabled: false))
                        )
                    }
                }
            }
            var collected: [(String, AuthorizationResult)] = []
            for await outcome in group { collected.append(outcome) }
            return collected
        }
        #expect(outcomes.count == 200)
        var owner: [String: String] = [:]
        for (app, result) in outcomes {
            if app == "com.example.denied" {
                #expect(result == .doNotHandle)
                continue
            }
            let token: String?
            switch result {
            case .httpResponse: token = result.accessToken
            case .authorizationHeaders(let fields):
                token = fields[.authorization].map { String($0.dropFirst("Bearer ".count)) }
            default: token = nil
            }
            let issued = try #require(token, "\(app): \(result)")
            if let earlier = owner.updateValue(app, forKey: issued) {
                #expect(earlier == app, "\(issued) went to \(earlier) and \(app)")
            }
        }
        // Afterwards each app's cached tokens are among those it received.
        for app in apps {
            let token = try #require(
                await adapter.authorize(harness.operation(.refresh, app: app, ui: false)).accessToken)
            #expect(owner[token] == app)
        }
    }
}
