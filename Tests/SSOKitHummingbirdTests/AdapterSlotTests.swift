import Foundation
import SSOKitConformance
import SSOKitCore
import SSOKitExtension
import SSOKitHummingbird
import SSOKitOIDC
import SSOKitTesting
import SSOKitTokenCache
import Testing

/// A reload swaps the adapter; the payloads it drops get the system's `configurationRemoved`.
@Suite struct AdapterSlotTests {
    @Test func aDroppedPayloadsEntriesAreRemovedAndTheNewAdapterServes() async throws {
        let both = try AdapterHarness(payloads: [
            AdapterHarness.oidcPayload(),
            AdapterHarness.oidcPayload("test.credential", type: "Credential", routes: #""Hosts": [".api.test"]"#),
        ])
        await both.login("com.example.mail")
        let slot = AdapterSlot(both.adapter)
        #expect(slot.adapter === both.adapter)

        // The same store and key, a profile that keeps only the Credential payload.
        let kept = try AdapterHarness(
            payloads: [
                AdapterHarness.oidcPayload("test.credential", type: "Credential", routes: #""Hosts": [".api.test"]"#)
            ], idp: both.idp, clock: both.clock, store: both.store, key: both.key)
        let removals = await slot.replace(with: kept.adapter)
        #expect(slot.adapter === kept.adapter)
        #expect(removals.map(\.payload) == ["test.oidc"])
        let body = try #require(removals.first?.result.httpBody)
        #expect(body["removed_entries"] == .integer(1))
        #expect(try await both.cache.entries(application: "com.example.mail").entries.isEmpty)
        #expect(slot.adapter.catalog.payloads.map(\.identifier) == ["test.credential"])
    }

    @Test func aReloadThatKeepsEveryPayloadRemovesNothing() async throws {
        let harness = try AdapterHarness(payloads: [AdapterHarness.oidcPayload()])
        await harness.login("com.example.mail")
        let slot = AdapterSlot(harness.adapter)
        let again = try harness.sibling()
        #expect(await slot.replace(with: again.adapter).isEmpty)
        #expect(try await !harness.cache.entries(application: "com.example.mail").entries.isEmpty)
    }

    @Test func theSystemsRemovalOfAnUnknownPayloadIsNotHandled() async throws {
        let harness = try AdapterHarness(payloads: [AdapterHarness.oidcPayload()])
        let result = await harness.adapter.removeConfiguration(ofPayload: "no.such.payload")
        #expect(result.kind == "do_not_handle")
    }
}

extension AuthorizationResult {
    /// The JSON body of an HTTP response.
    var httpBody: [String: JSONValue]? {
        guard case .httpResponse(let response) = self else { return nil }
        return (try? JSONParser().parse(response.body))?.objectValue
    }
}
