import Foundation
import HTTPTypes
import SSOKitCore
import SSOKitExtension
import SSOKitOIDC
import Testing

/// The JSON shapes of CLI-CONTRACT.md: the body of `POST /v1/authorize`, the answer to an interaction, and the
/// object `ssokit authorize` prints.
@Suite struct AuthorizationJSONTests {
    @Test func theAuthorizeBodyIsRead() throws {
        let request = try AuthorizationRequest(
            json: Array(
                #"""
                {"app": "com.example.mail", "operation": "refresh", "url": "https://idp.test/authorize",
                 "method": "post", "headers": {"WWW-Authenticate": "Bearer"}, "body": "a=b", "realm": "R",
                 "ui": false, "options": {"end_session": true}, "screen_locked": true, "future": 1}
                """#.utf8))
        #expect(request.callerBundleIdentifier == "com.example.mail")
        #expect(request.operation == .refresh)
        #expect(request.url?.absoluteString == "https://idp.test/authorize")
        #expect(request.httpMethod == "POST")
        #expect(request.httpHeaders[.wwwAuthenticate] == "Bearer")
        #expect(request.httpBody == Array("a=b".utf8))
        #expect(request.realm == "R")
        #expect(!request.isUserInterfaceEnabled)
        #expect(request.authorizationOptions == ["end_session": "true"])
        #expect(request.isScreenLocked)
    }

    @Test func defaultsAreAnInterceptedGETWithUI() throws {
        let request = try AuthorizationRequest(json: Array(#"{"app": "a.b", "operation": null}"#.utf8))
        #expect(request.operation == .none && request.httpMethod == "GET" && request.isUserInterfaceEnabled)
        #expect(request.url == nil && request.httpBody.isEmpty)
    }

    @Test(arguments: [
        (#"[1]"#, "invalid_json"), (##"{"app": "#app"}"##, "invalid_field"), (#"{"app": ""}"#, "invalid_field"),
        (#"{"operation": "login"}"#, "invalid_field"), (#"{"app": "a", "ui": "yes"}"#, "invalid_field"),
        (#"{"app": "a", "url": "relative/path"}"#, "invalid_field"),
        (#"{"app": "a", "headers": {"X": "a\r\nInjected: 1"}}"#, "invalid_field"),
        (#"{"app": "a", "headers": {"bad name": "v"}}"#, "invalid_field"),
        (#"{"app": "a", "method": "GE T"}"#, "invalid_field"), (#"{"app": "a", "options": {"x": 1}}"#, "invalid_field"),
        (#"{"app": "a" "#, "invalid_json"),
    ])
    func malformedBodiesAreRefusedWithACode(body: String, code: String) {
        #expect(throws: AuthorizationInputError.self) { try AuthorizationRequest(json: Array(body.utf8)) }
        do {
            _ = try AuthorizationRequest(json: Array(body.utf8))
        } catch {
            #expect(error.code.description == code)
        }
    }

    @Test func oversizeBodiesAreRefusedBeforeParsing() {
        let body = Array(#"{"app": "a", "body": ""#.utf8) + [UInt8](repeating: 0x61, count: 70_000) + Array(#""}"#.utf8)
        do {
            _ = try AuthorizationRequest(json: body)
            Issue.record("accepted")
        } catch {
            #expect(error.code == .tooLarge)
        }
    }

    @Test func interactionAnswersAreRead() throws {
        guard
            case .credentials(let fields) = try InteractionResponse(
                json: Array(#"{"username": "u", "password": "p"}"#.utf8))
        else {
            Issue.record("not credentials")
            return
        }
        #expect(fields == ["username": "u", "password": "p"])
        guard
            case .callbackURL(let url) = try InteractionResponse(json: Array(#"{"callback_url": "x:/cb?code=1"}"#.utf8))
        else {
            Issue.record("not a callback")
            return
        }
        #expect(url.absoluteString == "x:/cb?code=1")
        guard case .cancel = try InteractionResponse(json: Array(#"{"cancel": true}"#.utf8)) else {
            Issue.record("not cancel")
            return
        }
        #expect(throws: AuthorizationInputError.self) { try InteractionResponse(json: Array(#"{"password": 1}"#.utf8)) }
        #expect(throws: AuthorizationInputError.self) {
            try InteractionResponse(json: Array(#"{"callback_url": "no"}"#.utf8))
        }
    }

    @Test func resultObjectsHaveEveryMemberOfTheContract() throws {
        var fields = HTTPFields()
        fields[.location] = "https://app.test/cb?code=c"
        fields[.cacheControl] = "no-store"
        let redirect = AuthorizationResult.httpResponse(CompactHTTPResponse(status: 302, headerFields: fields))
            .jsonObject
        #expect(
            redirect == [
                "result": .string("http_response"), "status": .integer(302),
                "headers": .object([
                    "Location": .string("https://app.test/cb?code=c"), "Cache-Control": .string("no-store"),
                ]), "body": .null, "interaction": .null, "error": .null,
            ])
        let interaction = Interaction(
            id: "abc", kind: .credentials(fields: [CredentialField(name: "username", isSecret: false)]),
            expiresAt: Date())
        #expect(
            AuthorizationResult.needsInteraction(interaction).jsonObject["interaction"]
                == .object([
                    "id": .string("abc"), "kind": .string("credentials"), "url": .null,
                    "fields": .array([.string("username")]),
                ]))
        let failure = AuthorizationResult.failure(AuthorizationFailure(.notInteractive, .loginRequired, "call login"))
        #expect(
            failure.jsonObject["error"]
                == .object([
                    "code": .string("not_interactive"), "reason": .string("login_required"),
                    "message": .string("call login"),
                ]))
        #expect(AuthorizationResult.doNotHandle.jsonObject["result"] == .string("do_not_handle"))
        var authorization = HTTPFields()
        authorization[.authorization] = "Bearer t"
        let headers = AuthorizationResult.authorizationHeaders(authorization).jsonObject
        #expect(headers["result"] == .string("authorization_headers") && headers["status"] == .null)
        #expect(headers["headers"] == .object(["Authorization": .string("Bearer t")]))
    }
}
