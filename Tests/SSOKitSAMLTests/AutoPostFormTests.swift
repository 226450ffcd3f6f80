import Foundation
import SSOKitCore
import SSOKitSAML
import Testing

@Suite("AutoPostForm")
struct AutoPostFormTests {
    static let acs = "https://sp.example.com/saml/acs"
    static let message = Data(#"<samlp:Response ID="_r1" Version="2.0"/>"#.utf8).base64EncodedString()

    /// The test's own attribute escaping, to measure the page without its values.
    static func escaped(_ value: String) -> String {
        var result = ""
        for character in value {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }

    @Test("The page holds the form, hidden inputs, a noscript button and the submitting script")
    func pageStructure() throws {
        let form = try AutoPostForm(action: Self.acs, kind: .response, message: Self.message, relayState: "state-1")
        let html = form.html
        #expect(html.hasPrefix("<!DOCTYPE html>\n"))
        #expect(html.contains(#"<html lang="en"><head><meta charset="utf-8"><title>"#))
        #expect(html.contains(#"<form method="post" action="https://sp.example.com/saml/acs">"#))
        #expect(html.contains(#"<input type="hidden" name="SAMLResponse" value="\#(Self.message)">"#))
        #expect(html.contains(#"<input type="hidden" name="RelayState" value="state-1">"#))
        #expect(html.contains(#"<noscript>"#) && html.contains(#"<button type="submit">Continue</button></noscript>"#))
        #expect(html.contains("<script>document.forms[0].submit();</script>"))
        #expect(html.hasSuffix("</body></html>\n"))
        #expect(form.contentSecurityPolicy == nil)
    }

    @Test("A request posts as SAMLRequest and no RelayState input is written without one")
    func requestWithoutRelayState() throws {
        let form = try AutoPostForm(action: "https://idp.example.org/sso", kind: .request, message: Self.message)
        #expect(form.html.contains(#"name="SAMLRequest""#))
        #expect(!form.html.contains("SAMLResponse"))
        #expect(!form.html.contains("RelayState"))
        #expect(AutoPostForm.MessageKind.request.rawValue == "SAMLRequest")
        #expect(AutoPostForm.MessageKind.response.rawValue == "SAMLResponse")
    }

    @Test("Values are HTML-escaped in attributes")
    func escaping() throws {
        let relayState = #"<script>alert("x")</script>&'"#
        let action = "https://sp.example.com/acs?a=1&b=\"2\"&c='3'"
        let form = try AutoPostForm(action: action, kind: .response, message: Self.message, relayState: relayState)
        let html = form.html
        #expect(html.contains(#"value="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;""#))
        #expect(html.contains(#"action="https://sp.example.com/acs?a=1&amp;b=&quot;2&quot;&amp;c=&#39;3&#39;""#))
        #expect(!html.contains("<script>alert"))
        #expect(html.components(separatedBy: "<script").count == 2)
    }

    @Test("The script carries the nonce and the CSP allows it and the action's origin")
    func nonceAndPolicy() throws {
        let form = try AutoPostForm(
            action: Self.acs, kind: .response, message: Self.message, scriptNonce: "r4nd0m-N_nce+/==")
        #expect(form.html.contains(#"<script nonce="r4nd0m-N_nce+/==">document.forms[0].submit();</script>"#))
        #expect(
            form.contentSecurityPolicy
                == "default-src 'none'; script-src 'nonce-r4nd0m-N_nce+/=='; form-action https://sp.example.com; "
                + "base-uri 'none'")
    }

    @Test(
        "form-action names the action's origin",
        arguments: [
            ("https://sp.example.com/acs?x=1#f", "https://sp.example.com"),
            ("HTTPS://SP.Example.COM:8443/acs", "https://sp.example.com:8443"),
            ("http://localhost:8080/acs", "http://localhost:8080"),
            ("https://192.0.2.7/acs", "https://192.0.2.7"),
            ("https://xn--bcher-kva.example/acs", "https://xn--bcher-kva.example"),
            ("https://[2001:db8::1]:8443/acs", "https:"),
            ("https://sp%2Eexample.com/acs", "https:"),
        ])
    func formActionOrigin(action: String, origin: String) throws {
        let form = try AutoPostForm(action: action, kind: .response, message: Self.message, scriptNonce: "abc")
        let policy = try #require(form.contentSecurityPolicy)
        #expect(policy.contains("; form-action \(origin); "))
    }

    @Test(
        "Absolute http(s) actions are accepted as given",
        arguments: [
            "https://sp.example.com/acs", "http://sp.example.com/acs", "HTTPS://sp.example.com", "HtTp://sp:80/a?b=c",
            "https://sp.example.com/acs?a=1&b=2#frag", "https://127.0.0.1:8443/acs",
        ])
    func acceptedActions(action: String) throws {
        let form = try AutoPostForm(action: action, kind: .response, message: Self.message)
        #expect(form.action == action)
    }

    @Test(
        "Script, data, relative, scheme-less and disguised actions are refused",
        arguments: [
            "javascript:alert(1)", "JavaScript:alert(document.domain)", " javascript:alert(1)", "java\tscript:alert(1)",
            "java\nscript:alert(1)", "\u{1}javascript:alert(1)", "javascript\u{0}:alert(1)", "vbscript:msgbox(1)",
            "data:text/html,<script>alert(1)</script>", "data:text/html;base64,PHNjcmlwdD4=", "/saml/acs", "acs",
            "../acs", "//sp.example.com/acs", "sp.example.com/acs", "https:sp.example.com/acs", "https:///acs",
            "https://", "ftp://sp.example.com/acs", "file:///etc/passwd", "https://sp.example.com/a b",
            "https://sp.example.com/acs\n", " https://sp.example.com/acs", "https://sp.example.com\\@evil.example",
            "https:\\\\evil.example", "https://user:secret@sp.example.com/acs", "https://sp.example.com@evil.example/",
            "https://bücher.example/acs", "https://sp.example.com/\u{7F}", "", "\u{FEFF}https://sp.example.com/",
        ])
    func refusedActions(action: String) {
        #expect(throws: SAMLError(.invalidURL, "")) {
            try AutoPostForm(action: action, kind: .response, message: Self.message)
        }
    }

    @Test("Base64 with CR LF line breaks is accepted")
    func wrappedMessage() throws {
        let wrapped = Data(repeating: 0xA5, count: 200).base64EncodedString(options: .lineLength76Characters)
        #expect(wrapped.contains("\r\n"))
        let form = try AutoPostForm(action: Self.acs, kind: .response, message: wrapped)
        #expect(form.message == wrapped)
    }

    @Test(
        "Empty or non-base64 messages are refused",
        arguments: ["", "\r\n", "PHNhbWw+ PC9zYW1s", "PHNhbWw-_", "PHNh\"bWw=", "PHNh<bWw=", "PHNhbWw+\t", "PHNhbWé="])
    func refusedMessages(message: String) {
        #expect(throws: SAMLError(.invalidEncoding, "")) {
            try AutoPostForm(action: Self.acs, kind: .response, message: message)
        }
    }

    @Test("RelayState may be 80 bytes, not 81")
    func relayStateLength() throws {
        _ = try AutoPostForm(action: Self.acs, kind: .response, message: Self.message, relayState: "")
        _ = try AutoPostForm(
            action: Self.acs, kind: .response, message: Self.message, relayState: String(repeating: "r", count: 80))
        _ = try AutoPostForm(
            action: Self.acs, kind: .response, message: Self.message, relayState: String(repeating: "é", count: 40))
        for relayState in [String(repeating: "r", count: 81), String(repeating: "é", count: 41)] {
            #expect(throws: SAMLError(.relayStateTooLong, "")) {
                try AutoPostForm(action: Self.acs, kind: .response, message: Self.message, relayState: relayState)
            }
        }
        #expect(AutoPostForm.maximumRelayStateBytes == 80)
    }

    @Test(
        "A RelayState with a control character the page cannot carry is refused, not posted without it",
        arguments: [0x00, 0x01, 0x0B, 0x0C, 0x1F] as [UInt8])
    func relayStateControlCharacters(control: UInt8) {
        let relayState = "state" + String(UnicodeScalar(control)) + "1"
        #expect(throws: SAMLError(.invalidEncoding, "")) {
            try AutoPostForm(action: Self.acs, kind: .response, message: Self.message, relayState: relayState)
        }
    }

    @Test("compactForm refuses a parsed RelayState holding a NUL rather than post it without (found by fuzzing)")
    func parsedRelayStateWithControlCharacter() throws {
        // Tab, CR and LF are written as character references and read back.
        let form = try AutoPostForm(
            action: Self.acs, kind: .response, message: Self.message, relayState: "a\tb\r\nc")
        #expect(try AutoPostFormParser().parse(form.html).relayState == "a\tb\r\nc")
        // A parsed page whose RelayState holds a NUL: compactForm refuses it instead of posting "ab".
        let page =
            #"<form method="post" action="\#(Self.acs)"><input name="SAMLResponse" value="QUFB">"#
            + "<input name=\"RelayState\" value=\"a\u{0}b\"></form>"
        let content = try AutoPostFormParser().parse(page)
        #expect(content.relayState == "a\u{0}b")
        #expect(throws: SAMLError(.invalidEncoding, "")) { try content.compactForm() }
    }

    @Test(
        "Nonces must be base64 or base64url",
        arguments: ["", "=", "abc def", "a\"b", "abc'", "abc;", "'none'", "abc===", "a=b", "nonce\n", "nöncé"])
    func refusedNonces(nonce: String) {
        #expect(throws: SAMLError(.invalidMessage, "")) {
            try AutoPostForm(action: Self.acs, kind: .response, message: Self.message, scriptNonce: nonce)
        }
    }

    @Test("The page is at most 1 KiB besides the escaped values")
    func pageSize() throws {
        let action = "https://sp.example.com/saml2/acs?tenant=a&x=<'\">"
        let relayState = String(repeating: "&", count: 80)
        let nonce = String(repeating: "n", count: 64)
        let message = String(repeating: "QUJD", count: 5000)
        let form = try AutoPostForm(
            action: action, kind: .response, message: message, relayState: relayState, scriptNonce: nonce)
        let values = [action, relayState, nonce, message].map { Self.escaped($0).utf8.count }.reduce(0, +)
        #expect(form.html.utf8.count - values <= 1024)
    }

    @Test("Error reasons never quote the message, RelayState or action")
    func reasonsHoldNoValues() throws {
        let secret = "U2VjcmV0QXNzZXJ0aW9u"
        let errors = [
            try #require(throws: SAMLError.self) {
                try AutoPostForm(action: Self.acs, kind: .response, message: secret + "!")
            },
            try #require(throws: SAMLError.self) {
                let relayState = String(repeating: secret, count: 5)
                return try AutoPostForm(action: Self.acs, kind: .response, message: secret, relayState: relayState)
            },
            try #require(throws: SAMLError.self) {
                try AutoPostForm(action: "javascript:" + secret, kind: .response, message: secret)
            },
        ]
        for error in errors {
            #expect(!error.description.contains(secret))
        }
    }

    @Test("The form's content and compactForm agree")
    func contentRoundTrip() throws {
        let form = try AutoPostForm(
            action: Self.acs, kind: .request, message: Self.message, relayState: "rs", scriptNonce: "abc")
        #expect(
            form.content
                == AutoPostFormContent(action: Self.acs, kind: .request, message: Self.message, relayState: "rs"))
        #expect(try form.content.compactForm(scriptNonce: "abc") == form)
    }
}
