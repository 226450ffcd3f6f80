import Foundation
import SSOKitCore
import SSOKitOIDC
import Synchronization
import Testing

@testable import SSOKitDemo

/// `ssokit demo`'s engine, end to end on loopback: every step of the seed's demo, and a run that must fail.
@Suite(.serialized) struct SSODemoTests {
    private static func withServers<T>(
        suppliedPassword: String? = nil, _ body: (DemoServers) async throws -> T
    ) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ssokit-demo-test-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let servers = try await DemoServers.start(
            cacheFile: folder.appendingPathComponent("cache.sqlite").path, suppliedPassword: suppliedPassword)
        do {
            let result = try await body(servers)
            await servers.shutdown()
            return result
        } catch {
            await servers.shutdown()
            throw error
        }
    }

    @Test("Every step of the demo succeeds: browser SSO through the proxy, native apps, block list, SAML, logout")
    func everyStepSucceeds() async throws {
        let steps = Mutex<[DemoStep]>([])
        let passed = try await Self.withServers { servers in
            await SSODemo(servers: servers).run { step in steps.withLock { $0.append(step) } }
        }
        let reported = steps.withLock { $0 }
        #expect(passed, "\(reported.map(\.line))")
        #expect(
            reported.map(\.name) == [
                "browser_oidc_login", "native_app_burger", "native_app_tacos", "blocked_app", "browser_saml_login",
                "logout",
            ])
        for step in reported {
            #expect(step.ok, "\(step.line)")
            // Every compact answer stays within the adapter's 4 KiB (a SAMLResponse value aside).
            if let bytes = step.responseBytes { #expect(bytes > 0 && bytes <= 4096, "\(step.line)") }
        }
        let browser = try #require(reported.first)
        #expect(browser.responseBytes != nil, "the browser login must come back as a compact answer")
        #expect(browser.detail.contains("asked for credentials"))
        // The SAML app rides on the same IdP session: one login for both protocols.
        let saml = try #require(reported.first { $0.name == "browser_saml_login" })
        #expect(!saml.detail.contains("asking for credentials"), "\(saml.line)")
        // The JSON line of CLI-CONTRACT.md.
        let object = try #require(browser.jsonObject.objectValue)
        #expect(Set(object.keys) == ["step", "ok", "ms", "response_bytes", "detail"])
    }

    @Test("Wrong credentials: the browser login fails, the native apps get no token, the run reports failure")
    func wrongCredentialsFail() async throws {
        let steps = Mutex<[DemoStep]>([])
        let passed = try await Self.withServers(suppliedPassword: "not-the-password") { servers in
            await SSODemo(servers: servers).run { step in steps.withLock { $0.append(step) } }
        }
        let reported = steps.withLock { $0 }
        #expect(!passed)
        let byName = Dictionary(reported.map { ($0.name, $0) }) { first, _ in first }
        #expect(byName["browser_oidc_login"]?.ok == false)
        // Without an IdP session a silent refresh cannot give tokens: single sign-on never invents a login.
        #expect(byName["native_app_burger"]?.ok == false)
        #expect(byName["native_app_burger"]?.detail.contains("instead of tokens") == true)
        // The block list holds whatever the IdP says.
        #expect(byName["blocked_app"]?.ok == true)
    }
}
