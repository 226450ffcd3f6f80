import Foundation
import Testing

@testable import SSOKitExtension

/// Finding an IdP's login form the way a browser would submit it.
@Suite struct LoginFormParserTests {
    let page = URL(string: "https://idp.test/login?next=%2Fauthorize")!

    func find(_ html: String) -> LoginForm? {
        LoginFormParser.find(in: Array(html.utf8), pageURL: page)
    }

    @Test func aPasswordFormWithHiddenValuesAndItsSubmitButton() throws {
        let form = try #require(
            find(
                #"""
                <form method="GET" action="/search"><input name="q"></form>
                <FORM Method="Post" action="/session?x=1"><input type=hidden name=csrf value="t&amp;1">
                <input name="user" type="email"><input type="password" name="pw"><input type=checkbox name=r checked>
                <input type=checkbox name=unchecked><input name=off disabled>
                <button name="go" value="1">Sign in</button><input type=submit name=second value=2></FORM>
                """#))
        #expect(form.action.absoluteString == "https://idp.test/session?x=1")
        #expect(
            form.fields == [
                CredentialField(name: "user", isSecret: false), CredentialField(name: "pw", isSecret: true),
            ])
        #expect(form.hidden.map(\.name) == ["csrf", "r"])
        #expect(form.hidden.first?.value == "t&1")
        #expect(form.submit?.name == "go")
        let body = String(
            decoding: try form.body(credentials: ["username": "alice", "password": "p w"]), as: UTF8.self)
        #expect(body == "csrf=t%261&r=on&user=alice&pw=p+w&go=1")
    }

    @Test func theOnlyPostFormWithATextInputWhenNoneAsksForAPassword() throws {
        // oidc-provider-mock's page: one form with a "sub" input (no action), one Deny form of buttons only.
        let form = try #require(
            find(
                #"""
                <form method="post" style="display: contents"><input type="text" name="sub" required />
                <button type="submit">Authorize</button></form>
                <form method="post"><button type="submit" name="action" value="deny">Deny</button></form>
                """#))
        #expect(form.action == page)
        #expect(form.fields == [CredentialField(name: "sub", isSecret: false)])
        #expect(form.submit == nil)
        #expect(String(decoding: try form.body(credentials: ["username": "bob"]), as: UTF8.self) == "sub=bob")
        #expect(String(decoding: try form.body(credentials: ["sub": "carol"]), as: UTF8.self) == "sub=carol")
    }

    @Test func formsInScriptsCommentsAndNestedFormsDoNotCount() {
        #expect(
            find(
                #"<script>document.write('<form method=post><input type=password name=p></form>')</script>"#
                    + "<!-- <form method=post><input type=password name=p></form> -->") == nil)
        #expect(find(#"<form method=post><input name=a></form><form method=post><input name=b></form>"#) == nil)
        #expect(find(#"<input type=password name=p><form method=post></form>"#) == nil)
        #expect(find(#"<form method=post action="javascript:alert(1)"><input type=password name=p></form>"#) == nil)
    }

    @Test func aMissingFirstCredentialIsRefused() throws {
        let form = try #require(find(#"<form method=post><input name=u><input type=password name=p></form>"#))
        #expect(throws: AuthorizationFailure(.failed, .missingCredentials, "")) {
            try form.body(credentials: ["username": "alice"])
        }
    }
}
