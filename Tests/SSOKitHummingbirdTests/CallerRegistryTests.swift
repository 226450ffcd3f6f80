import SSOKitHummingbird
import Testing

/// The registry file of `ssokit serve --registry`: its shape, and who may act as what.
@Suite struct CallerRegistryTests {
    static let digest = String(repeating: "ab", count: 32)

    @Test func readsUidsCertificatesAndLoopback() throws {
        let registry = try CallerRegistry(
            json: Array(
                """
                {"uids": {"1000": ["com.example.mail", "com.example.notes"], "0": []},
                 "certificates": {"\(Self.digest.uppercased())": ["com.example.api"]},
                 "loopback": ["com.example.dev"], "comment": "ignored"}
                """.utf8))
        #expect(registry.permits(.localUser(uid: 1000), application: "com.example.mail"))
        #expect(registry.permits(.localUser(uid: 1000), application: "COM.EXAMPLE.NOTES"))
        #expect(!registry.permits(.localUser(uid: 1000), application: "com.example.api"))
        #expect(!registry.permits(.localUser(uid: 0), application: "com.example.mail"))
        #expect(!registry.permits(.localUser(uid: 1001), application: "com.example.mail"))
        #expect(registry.permits(.clientCertificate(sha256: Self.digest), application: "com.example.api"))
        #expect(registry.permits(.loopback, application: "com.example.dev"))
        #expect(!registry.permits(nil, application: "com.example.dev"))
        #expect(registry.count == 4)
    }

    @Test func anEmptyRegistryPermitsNothingAndAnyApplicationEverything() {
        var registry = CallerRegistry()
        #expect(!registry.permits(.loopback, application: "com.example.mail"))
        registry.grant(.anyApplication, to: .loopback)
        #expect(registry.permits(.loopback, application: "com.example.mail"))
        #expect(!registry.permits(.loopback, application: "not a bundle id"))
        #expect(!registry.permits(.localUser(uid: 1), application: "com.example.mail"))
    }

    @Test(arguments: [
        "", "[]", "{\"uids\": []}", "{\"uids\": {\"alice\": [\"a.b\"]}}", "{\"uids\": {\"01000\": [\"a.b\"]}}",
        "{\"uids\": {\"4294967296\": [\"a.b\"]}}", "{\"uids\": {\"-1\": [\"a.b\"]}}",
        "{\"uids\": {\"1000\": \"a.b\"}}", "{\"uids\": {\"1000\": [\"a b\"]}}", "{\"uids\": {\"1000\": [7]}}",
        "{\"certificates\": {\"abcd\": [\"a.b\"]}}",
        "{\"certificates\": {\"\(String(repeating: "zz", count: 32))\": []}}",
        "{\"loopback\": {\"a.b\": true}}",
    ])
    func refusesWhatIsNotTheRegistryShape(text: String) {
        #expect(throws: ServeError(.invalidRegistry, "")) {
            try CallerRegistry(json: Array(text.utf8))
        }
    }

    @Test func refusesAnOversizeFile() {
        let text = "{\"loopback\": [\"" + String(repeating: "a", count: CallerRegistry.maximumJSONBytes) + "\"]}"
        #expect(throws: ServeError(.invalidRegistry, "")) { try CallerRegistry(json: Array(text.utf8)) }
    }
}
