import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SSOKitHummingbird
import Testing

/// Bad input gets a 4xx with `{"error", "message"}`: never a 5xx, never an echo of the input.
@Suite struct BadInputTests {
    @Test(arguments: [
        ("", "invalid_json"), ("{", "invalid_json"), ("[]", "invalid_json"), ("{\"app\": 5}", "invalid_field"),
        ("{\"app\": \"not a bundle id\"}", "invalid_field"), ("{\"operation\": \"login\"}", "invalid_field"),
        ("{\"app\": \"com.example.mail\", \"url\": \"relative/path\"}", "invalid_field"),
        ("{\"app\": \"com.example.mail\", \"headers\": {\"x\": \"a\\nb\"}}", "invalid_field"),
        ("{\"app\": \"com.example.mail\", \"ui\": \"yes\"}", "invalid_field"),
        (String(repeating: "[", count: 100), "invalid_json"),
    ])
    func malformedBodiesAre400(body: String, code: String) async throws {
        let fixture = try AppAPIFixture()
        try await fixture.application.test(.router) { client in
            let answer = try await client.post("/v1/authorize", uid: 1000, body: body)
            #expect(answer.status == .badRequest)
            #expect(answer.error == code)
            #expect(answer.object.keys.sorted() == ["error", "message"])
        }
    }

    @Test(arguments: ["/v1/authorize", "/v1/interactions/AAAAAAAAAAAAAAAAAAAAAA"])
    func bodiesOver64KiBAre413(uri: String) async throws {
        let fixture = try AppAPIFixture()
        let padding = String(repeating: "x", count: 64 * 1024)
        try await fixture.application.test(.router) { client in
            let answer = try await client.post(
                uri, uid: 1000, body: "{\"app\": \"com.example.mail\", \"pad\": \"\(padding)\"}")
            #expect(answer.status == .contentTooLarge)
            #expect(answer.error == "too_large")
            #expect(answer.text.utf8.count < 200)
        }
    }

    @Test func aBodyOfExactly64KiBIsRead() async throws {
        let fixture = try AppAPIFixture()
        let prefix = "{\"app\": \"com.example.mail\", \"pad\": \""
        let padding = String(repeating: "x", count: 64 * 1024 - prefix.utf8.count - 2)
        try await fixture.application.test(.router) { client in
            let answer = try await client.post("/v1/authorize", uid: 1000, body: prefix + padding + "\"}")
            #expect(answer.status == .ok, "\(answer.text)")
        }
    }

    @Test func unknownRoutesAndMethodsAreNot5xx() async throws {
        let fixture = try AppAPIFixture()
        try await fixture.application.test(.router) { client in
            #expect(try await client.get("/v1/authorize").status.code < 500)
            #expect(try await client.get("/nothing").status == .notFound)
            let empty = try await client.post("/v1/interactions/", uid: 1000, body: "{}")
            #expect(empty.status.code < 500)
        }
    }
}
