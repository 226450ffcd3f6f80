import Foundation
import HTTPTypes
import SSOKitConformance
import SSOKitCore
import SSOKitExtension
import Testing

@Suite("Associated domains: authsrv.apps must list TEAMID.ExtensionIdentifier")
struct AssociatedDomainsCheckTests {
    static let listed = #"{"authsrv": {"apps": ["ABCDE12345.com.example.ext", "OTHER12345.com.other"]}}"#

    static func payloads(_ routes: String, team: Bool = true) throws -> [SSOPayload] {
        var payload = ProfileFixtures.payload("p", routes: routes)
        if !team { payload = payload.replacingOccurrences(of: #""TeamIdentifier": "ABCDE12345","#, with: "") }
        return try ProfileLoader().load(ProfileFixtures.json(payload)).payloads
    }

    @Test("a host whose document lists the extension passes; its document is fetched once per host")
    func listed() async throws {
        let transport = InMemoryHTTPTransport(routes: [
            "https://idp.example.com/.well-known/apple-app-site-association": .json(Self.listed),
            "http://127.0.0.1:8080/.well-known/apple-app-site-association": .json(Self.listed),
        ])
        let payloads = try Self.payloads(
            #""URLs": ["https://idp.example.com/a/", "https://IDP.example.com/b/", "http://127.0.0.1:8080/"]"#)
        let results = await AssociatedDomainsCheck(transport: transport).check(payloads)
        #expect(results.map(\.passed) == [true, true])
        #expect(results.map(\.host) == ["idp.example.com", "127.0.0.1:8080"])
        #expect(results.first?.applicationIdentifier == "ABCDE12345.com.example.ext")
        #expect(transport.requests.count == 2)
        #expect(transport.requests.first?.request.method == .get)
    }

    @Test("https is used for every host but loopback over http, on the payload's port")
    func schemes() async throws {
        let transport = InMemoryHTTPTransport { _ in .json(Self.listed) }
        let payloads = try Self.payloads(#""URLs": ["https://idp.example.com:8443/", "http://localhost:9000/"]"#)
        _ = await AssociatedDomainsCheck(transport: transport).check(payloads)
        #expect(
            transport.requests.map(\.urlWithoutQuery) == [
                "https://idp.example.com:8443/.well-known/apple-app-site-association",
                "http://localhost:9000/.well-known/apple-app-site-association",
            ])
    }

    @Test("each failure is a problem naming the payload: not listed, HTTP error, redirect, not JSON, oversize, no team")
    func failures() async throws {
        let routes: [String: HTTPTransportResponse] = [
            "https://other.example.com/.well-known/apple-app-site-association":
                .json(#"{"authsrv": {"apps": ["ZZZZZ12345.com.example.ext"]}, "applinks": {}}"#),
            "https://moved.example.com/.well-known/apple-app-site-association": .json("", status: .movedPermanently),
            "https://text.example.com/.well-known/apple-app-site-association": .json("<html>"),
            "https://noapps.example.com/.well-known/apple-app-site-association": .json(#"{"webcredentials": {}}"#),
            "https://big.example.com/.well-known/apple-app-site-association":
                .json(#"{"authsrv": {"apps": ["\#(String(repeating: "x", count: 200))"]}}"#),
        ]
        let transport = InMemoryHTTPTransport(routes: routes)
        let payloads = try Self.payloads(
            #""URLs": ["https://other.example.com/", "https://moved.example.com/", "https://text.example.com/", "https://noapps.example.com/", "https://big.example.com/", "https://missing.example.com/"]"#
        )
        let results = await AssociatedDomainsCheck(transport: transport, maximumBytes: 100).check(payloads)
        #expect(results.count == 6)
        #expect(results.allSatisfy { !$0.passed })
        #expect(results.allSatisfy { $0.problem?.code == .associatedDomainMismatch && $0.problem?.payload == "p" })
        let messages = results.compactMap(\.problem?.message)
        #expect(messages[0].contains("does not list ABCDE12345.com.example.ext"))
        #expect(messages[1].contains("HTTP 301"))
        #expect(messages[2].contains("no authsrv.apps"))
        #expect(messages[3].contains("no authsrv.apps"))
        #expect(messages[4].contains("larger than 100 bytes"))
        #expect(messages[5].contains("HTTP 404"))

        let noTeam = await AssociatedDomainsCheck(transport: transport)
            .check(try Self.payloads(#""URLs": ["https://other.example.com/"]"#, team: false))
        #expect(noTeam.first?.problem?.key == "TeamIdentifier")
        #expect(noTeam.first?.problem?.code == .missingKey)
    }

    @Test("a transport failure is a problem, and Credential payloads are not checked")
    func transportFailure() async throws {
        let transport = InMemoryHTTPTransport { _ in throw HTTPTransportError(.connectionFailed, "refused") }
        let results = await AssociatedDomainsCheck(transport: transport)
            .check(try Self.payloads(#""URLs": ["https://idp.example.com/"]"#))
        #expect(results.first?.problem?.message.contains("connection_failed") == true)
        let credential = try ProfileLoader().load(
            ProfileFixtures.json(
                ProfileFixtures.payload("c", type: "Credential", routes: #""Hosts": ["a.example.com"]"#)))
        #expect(await AssociatedDomainsCheck(transport: transport).check(credential.payloads).isEmpty)
    }
}
