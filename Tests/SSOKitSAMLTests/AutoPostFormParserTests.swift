import Foundation
import SSOKitSAML
import Testing

@Suite("AutoPostFormParser")
struct AutoPostFormParserTests {
    static let acs = "https://sp.example.org/Shibboleth.sso/SAML2/POST"
    /// A response-shaped base64 value holding `+` and `/`.
    static let message = Data(
        (#"<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol""#
            + #" ID="_a" Version="2.0">???>>></samlp:Response>"#)
            .utf8
    ).base64EncodedString()
    static let parser = AutoPostFormParser()
    /// The opening tag of a POST form to `https://sp.example.com/acs`.
    static let postForm = #"<form method="post" action="https://sp.example.com/acs">"#
    /// A complete form posting to another site, as decoys hidden in comments and scripts.
    static let decoy =
        #"<form method="post" action="https://evil.example/"><input name="SAMLResponse" value="QUFB"></form>"#

    /// `<input name="…" value="…">`.
    static func input(_ name: String, _ value: String = "QUFB") -> String {
        #"<input name="\#(name)" value="\#(value)">"#
    }

    @Test("The sample message uses the whole base64 alphabet's punctuation")
    func sampleMessage() {
        #expect(Self.message.contains("+") && Self.message.contains("/") && Self.message.hasSuffix("="))
    }

    /// Parses `page`, then checks that the compact form of the result parses to the same content.
    static func parseAndRoundTrip(_ page: String, pageURL: URL? = nil) throws -> AutoPostFormContent {
        let content = try parser.parse(page, pageURL: pageURL)
        let compact = try content.compactForm(scriptNonce: "bm9uY2U")
        #expect(try parser.parse(compact.html) == content)
        #expect(try parser.parse(Array(compact.html.utf8)) == content)
        return content
    }

    /// `value` with every character written as a hexadecimal reference, as some IdPs do.
    static func hexReferences(_ value: String) -> String {
        value.unicodeScalars.map { "&#x" + String($0.value, radix: 16) + ";" }.joined()
    }

    // MARK: Real-world shapes

    @Test("A Shibboleth-IdP-style page with hex-escaped action and RelayState")
    func shibbolethStyle() throws {
        let page = """
            <!DOCTYPE html>
            <html>
                <head>
                    <meta charset="utf-8" />
                    <title>Shibboleth Identity Provider - Continue</title>
                </head>
                <body onload="document.forms[0].submit()">
                    <noscript>
                        <p><strong>Note:</strong> your browser does not run JavaScript; press Continue once.</p>
                    </noscript>
                    <form action="\(Self.hexReferences(Self.acs))" method="post">
                        <div>
                            <input type="hidden" name="RelayState" value="\(Self.hexReferences("ss:mem:4f2c9a"))"/>
                            <input type="hidden" name="SAMLResponse" value="\(Self.message)"/>
                        </div>
                        <noscript><div><input type="submit" value="Continue"/></div></noscript>
                    </form>
                    <script src="/idp/js/postbinding.js"></script>
                </body>
            </html>
            """
        let content = try Self.parseAndRoundTrip(page)
        #expect(
            content
                == AutoPostFormContent(
                    action: Self.acs, kind: .response, message: Self.message, relayState: "ss:mem:4f2c9a"))
    }

    @Test("An ADFS-style page with large inline script and style before the form")
    func adfsStyle() throws {
        let decoyScript = """
            var tpl = '\(Self.decoy)';
            function onLoad() { if (document.forms.length) { document.forms[0].submit(); } } // a < b && c > d

            """
        let style = "body { font-family: 'Segoe UI'; } .x > .y { content: '<input name=SAMLResponse value=QkJC>'; }\n"
        let page = """
            <!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN"
              "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
            <html xmlns="http://www.w3.org/1999/xhtml" lang="en-US"><head>
            <meta http-equiv="X-UA-Compatible" content="IE=edge"/><title>Working...</title>
            <style type="text/css">\(String(repeating: style, count: 2000))</style>
            <script type="text/javascript">\(String(repeating: decoyScript, count: 1500))</script>
            </head><body>
            <form method="POST" name="hiddenform" action="https://sp.example.com/adfs/acs">\
            <input type="hidden" name="SAMLResponse" value="\(Self.message)" />\
            <input type="hidden" name="RelayState" value="/app/home?x=1&amp;y=2" />\
            <noscript><p>Script is disabled. Click Submit to continue.</p>\
            <input type="submit" value="Submit" /></noscript></form>\
            <script language="javascript">window.setTimeout('document.forms[0].submit()', 0);</script></body></html>
            """
        #expect(page.utf8.count > 300_000)
        let content = try Self.parseAndRoundTrip(page)
        #expect(content.action == "https://sp.example.com/adfs/acs")
        #expect(content.message == Self.message)
        #expect(content.relayState == "/app/home?x=1&y=2")
    }

    @Test("A pysaml2/python-style minimal page without a closing form tag")
    func pythonStyle() throws {
        let page = """
            <html><head><title>SAML 2.0 POST</title></head><body onload="document.forms[0].submit()">
            <FORM action="https://sp.example.net/saml2/acs/" method="post">
            <input type="hidden" name="SAMLResponse" value="\(Self.message)"/>
            <input type="hidden" name="RelayState" value="Lw=="/>
            <input type="submit" value="Submit"/>
            </body></html>
            """
        let content = try Self.parseAndRoundTrip(page)
        #expect(content.action == "https://sp.example.net/saml2/acs/")
        #expect(content.relayState == "Lw==")
    }

    @Test("An input inside a comment or script is ignored and the real one is found later")
    func decoysInCommentsAndScripts() throws {
        let page = """
            <html><body>
            <!-- old: \(Self.decoy) -->
            <!--> <!---> <!-- x --!> <!-- a -- b --->
            <script>document.write('\(Self.decoy)');</script>
            <title>\(Self.decoy)</title><textarea>\(Self.decoy)</TEXTAREA><style>\(Self.decoy)</style >
            <iframe>\(Self.decoy)</iframe><noembed>\(Self.decoy)</noembed><xmp>\(Self.decoy)</xmp>
            <form method="post" action="https://sp.example.com/acs">
            <!-- <input name="RelayState" value="hidden"> -->
            <input type="hidden" name="SAMLResponse" value="\(Self.message)">
            </form></body></html>
            """
        let content = try Self.parseAndRoundTrip(page)
        #expect(
            content == AutoPostFormContent(action: "https://sp.example.com/acs", kind: .response, message: Self.message)
        )
    }

    @Test("Single-quoted, unquoted and uppercase attributes and tags")
    func attributeSyntax() throws {
        let page = """
            <HTML><BODY><FORM METHOD=POST ACTION='https://sp.example.com/acs?a=1&amp;b=2'>
            <INPUT TYPE=HIDDEN NAME=SAMLRequest VALUE=\(Self.message)>
            <Input Type = 'hidden' Name = 'RelayState' Value = 'say "hi"'/>
            </FORM></BODY></HTML>
            """
        let content = try Self.parseAndRoundTrip(page)
        #expect(
            content
                == AutoPostFormContent(
                    action: "https://sp.example.com/acs?a=1&b=2", kind: .request, message: Self.message,
                    relayState: #"say "hi""#))
    }

    @Test("Character references in the base64 value are decoded and line breaks removed")
    func referencesInMessage() throws {
        let encoded = "PHNh&#x2B;bW&#X2b;w&#43;&#x2F;&#47;cD0&#x3D;&#13;&#10;QUJD&#xD;&#xA;\n  REVG"
        let page = Self.postForm + Self.input("SAMLResponse", encoded) + "</form>"
        let content = try Self.parseAndRoundTrip(page)
        #expect(content.message == "PHNh+bW+w+//cD0=QUJDREVG")
    }

    @Test(
        "Character references in RelayState",
        arguments: [
            ("a&amp;b&lt;c&gt;d&quot;e&#39;f&#x27;g&apos;h", #"a&b<c>d"e'f'g'h"#),
            ("&#65;&#x42;&#X43;&#0068", "ABCD"),
            ("&#233;&#x1F600;&eacute;&unknown;", "é😀&eacute;&unknown;"),
            ("&amp=1&ampx&amp &lt", "&amp=1&ampx& <"),
            ("&#0;&#xD800;&#x110000;&#99999999999;", "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}"),
            ("&;&#;&#x;&", "&;&#;&#x;&"),
            ("&colon;&sol;&Tab;&NewLine;", ":/\t\n"),
        ])
    func referencesInRelayState(raw: String, decoded: String) throws {
        let page = """
            <form method="post" action="https://sp.example.com/acs">
            <input type="hidden" name="SAMLResponse" value="\(Self.message)"><input name="RelayState" value="\(raw)">
            </form>
            """
        #expect(try Self.parser.parse(page).relayState == decoded)
    }

    // MARK: Form selection

    @Test("GET forms and forms without a method are skipped for a later POST form")
    func skipsNonPostForms() throws {
        let page = """
            <form action="https://a.example/">\(Self.input("SAMLResponse"))</form>
            <form method="get" action="https://b.example/">\(Self.input("SAMLResponse"))</form>
            <form method="dialog" action="https://c.example/">\(Self.input("SAMLResponse"))</form>
            <form method="PoSt" action="https://sp.example.com/acs">\(Self.input("SAMLResponse", Self.message))</form>
            """
        #expect(try Self.parseAndRoundTrip(page).action == "https://sp.example.com/acs")
    }

    @Test("Forms without a SAML message are skipped; inputs outside forms are ignored")
    func formsWithoutMessage() throws {
        let page = """
            <input type="hidden" name="SAMLResponse" value="QUFB">
            <form method="post" action="https://search.example/"><input name="q" value=""></form>
            <input type="hidden" name="SAMLResponse" value="QUFB">
            \(Self.postForm)\(Self.input("SAMLResponse", Self.message))</form>
            <input type="hidden" name="RelayState" value="outside">
            """
        let content = try Self.parseAndRoundTrip(page)
        #expect(content.action == "https://sp.example.com/acs")
        #expect(content.relayState == nil)
    }

    @Test("A form tag inside an open form is ignored, as in HTML")
    func nestedForm() throws {
        let page = """
            <form method="post" action="https://sp.example.com/acs">
            <form method="get" action="https://evil.example/">
            <input name="SAMLResponse" value="\(Self.message)">
            </form>
            """
        #expect(try Self.parser.parse(page).action == "https://sp.example.com/acs")
    }

    @Test("Disabled inputs, buttons and the first of repeated attributes")
    func inputRules() throws {
        let page = """
            <form method="post" action="https://sp.example.com/acs">
            <input type="submit" name="SAMLRequest" value="QUFB">
            <input type="hidden" name="RelayState" value="off" disabled>
            <input type="hidden" name="SAMLResponse" name="other" value="\(Self.message)" value="QUFB">
            <input type="text" name="RelayState" value="on">
            </form>
            """
        let content = try Self.parseAndRoundTrip(page)
        #expect(content.kind == .response)
        #expect(content.message == Self.message)
        #expect(content.relayState == "on")
    }

    // MARK: Actions

    @Test(
        "Relative, empty and base-relative actions resolve against the page URL",
        arguments: [
            (#"<form method="post" action="/sp/acs">"#, "https://idp.example.com/sp/acs"),
            (#"<form method="post" action="acs?x=1">"#, "https://idp.example.com/idp/profile/acs?x=1"),
            (#"<form method="post" action="//sp.example.com/acs">"#, "https://sp.example.com/acs"),
            (#"<form method="post" action=" https://sp.example.com/acs&#10;">"#, "https://sp.example.com/acs"),
            (#"<form method="post" action="">"#, "https://idp.example.com/idp/profile/SSO?e=1"),
            (#"<form method="post">"#, "https://idp.example.com/idp/profile/SSO?e=1"),
            (
                #"<base href="https://sp.example.com/saml/"><form method="post" action="acs">"#,
                "https://sp.example.com/saml/acs"
            ),
            (
                #"<base href="/other/"><base href="/ignored/"><form method="post" action="acs">"#,
                "https://idp.example.com/other/acs"
            ),
        ])
    func resolvesActions(formTag: String, action: String) throws {
        let pageURL = try #require(URL(string: "https://idp.example.com/idp/profile/SSO?e=1"))
        let page = formTag + #"<input name="SAMLResponse" value="\#(Self.message)"></form>"#
        #expect(try Self.parseAndRoundTrip(page, pageURL: pageURL).action == action)
    }

    @Test(
        "Script, data, disguised and unresolvable actions are refused",
        arguments: [
            #"action="javascript:alert(1)""#, #"action="JAVASCRIPT:alert(1)""#, #"action=" javascript:alert(1)""#,
            #"action="java&#x09;script:alert(1)""#, #"action="java&Tab;script:alert(1)""#,
            #"action="&#x6A;avascript&colon;alert(1)""#, #"action="data:text/html,x""#,
            #"action="/acs""#, #"action="acs""#, #"action="""#, "", #"action="ftp://sp.example.com/""#,
            #"action="https://sp.example.com/&#0;""#, #"action="https:\\evil.example""#,
        ])
    func refusesActions(actionAttribute: String) {
        let page = #"<form method="post" \#(actionAttribute)>"# + Self.input("SAMLResponse", Self.message) + "</form>"
        #expect(throws: SAMLError(.invalidURL, "")) {
            try Self.parser.parse(page)
        }
    }

    @Test("A base href cannot turn a relative action into a script URL")
    func scriptBase() throws {
        let pageURL = try #require(URL(string: "https://idp.example.com/sso"))
        let page = #"<base href="javascript:alert(1)//"><form method="post" action="x">"# + Self.input("SAMLResponse")
        #expect(throws: SAMLError(.invalidURL, "")) {
            try Self.parser.parse(page, pageURL: pageURL)
        }
    }

    // MARK: Failures

    @Test(
        "Pages without a usable form",
        arguments: [
            "", "<html><body><p>Hello</p></body></html>", "not html at all < > & <<<<",
            #"<form method="get" action="https://sp.example.com/acs">"# + input("SAMLResponse") + "</form>",
            #"<form action="https://sp.example.com/acs">"# + input("SAMLResponse") + "</form>",
            postForm + input("samlresponse") + input("SAMLResponse ") + "</form>",
            postForm + "</form>" + input("SAMLResponse"),
            "<!-- " + postForm + input("SAMLResponse") + "</form> -->",
            "<plaintext>" + postForm + input("SAMLResponse") + "</form>",
        ])
    func noForm(page: String) {
        #expect(throws: SAMLError(.formNotFound, "")) {
            try Self.parser.parse(page)
        }
    }

    @Test(
        "Pages cut off inside the form are refused",
        arguments: [
            postForm + #"<input name="SAMLResponse" value="QUFB"#,
            postForm + #"<input name="SAMLResponse" value=QUFB"#,
            postForm + #"<input name="SAMLResponse" value="QUFB""#,
            postForm + input("SAMLResponse") + #"<input name="Rel"#,
            postForm + input("SAMLResponse") + #"<input name="RelayState" value='x"#,
            postForm + input("SAMLResponse") + "<!-- note",
            postForm + input("SAMLResponse") + "<script>submit()",
            postForm + input("SAMLResponse") + "<!DOCTYPE",
            postForm + input("SAMLResponse") + "</form",
            postForm + input("SAMLResponse") + "</",
            postForm + input("SAMLResponse") + "<",
            #"<form method="post" action="https://sp.exa"#,
        ])
    func truncatedPage(page: String) throws {
        let error = try #require(throws: SAMLError.self) { try Self.parser.parse(page) }
        #expect(error.code == .formNotFound)
    }

    @Test("A complete form before a cut-off tail is still found")
    func truncatedAfterForm() throws {
        let page = Self.postForm + Self.input("SAMLResponse") + #"</form><div class="#
        #expect(try Self.parser.parse(page).message == "QUFB")
    }

    @Test("Ambiguous forms are refused")
    func ambiguousForms() {
        let pages = [
            Self.postForm + Self.input("SAMLResponse") + Self.input("SAMLResponse", "QkJC"),
            Self.postForm + Self.input("SAMLResponse") + Self.input("SAMLRequest", "QkJC"),
            Self.postForm + Self.input("SAMLResponse") + Self.input("RelayState", "a") + Self.input("RelayState", "b"),
        ]
        for page in pages {
            #expect(throws: SAMLError(.invalidMessage, "")) {
                try Self.parser.parse(page)
            }
        }
    }

    @Test(
        "Empty or non-base64 messages are refused",
        arguments: [#"value="""#, "", #"value="   ""#, #"value="QUFB!""#, #"value="QU-_""#, #"value="&lt;x&gt;""#])
    func badMessages(valueAttribute: String) {
        let page = Self.postForm + #"<input name="SAMLResponse" \#(valueAttribute)></form>"#
        #expect(throws: SAMLError(.invalidEncoding, "")) {
            try Self.parser.parse(page)
        }
    }

    @Test("A long RelayState is returned, and refused only when building the compact form")
    func longRelayState() throws {
        let relayState = String(repeating: "x", count: 200)
        let page = """
            <form method="post" action="https://sp.example.com/acs"><input name="SAMLResponse" value="\(Self.message)">
            <input name="RelayState" value="\(relayState)"></form>
            """
        let content = try Self.parser.parse(page)
        #expect(content.relayState == relayState)
        #expect(throws: SAMLError(.relayStateTooLong, "")) {
            try content.compactForm()
        }
    }

    @Test("Pages over the cap are refused before parsing")
    func sizeCap() throws {
        let form = try AutoPostForm(action: "https://sp.example.com/acs", kind: .response, message: Self.message)
        let page = form.html
        #expect(throws: SAMLError(.tooLarge, "")) {
            try AutoPostFormParser(maximumPageBytes: page.utf8.count - 1).parse(page)
        }
        #expect(try AutoPostFormParser(maximumPageBytes: page.utf8.count).parse(page) == form.content)
        #expect(AutoPostFormParser.defaultMaximumPageBytes == 4 * 1024 * 1024)
        let oversized = page + String(repeating: " ", count: AutoPostFormParser.defaultMaximumPageBytes)
        #expect(throws: SAMLError(.tooLarge, "")) {
            try Self.parser.parse(oversized)
        }
        #expect(throws: SAMLError(.tooLarge, "")) {
            try Self.parser.parse(Data(oversized.utf8))
        }
    }

    @Test(
        "Hostile 1 MiB pages finish in one linear pass",
        arguments: ["<a ", "<!--", "<a b='", "<!-", "&#x", "<script>", "</", "<a b=c ", "<form method=post>", "<"])
    func hostilePages(unit: String) {
        let count = 1024 * 1024 / unit.utf8.count
        let page = String(repeating: unit, count: count)
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            #expect(throws: SAMLError(.formNotFound, "")) {
                try Self.parser.parse(page)
            }
        }
        #expect(elapsed < .seconds(20))
    }

    @Test("Bytes that are not UTF-8 around the form do not matter")
    func nonUTF8Bytes() throws {
        var page: [UInt8] = [0xFF, 0xFE, 0xC3]
        page += Array(#"<p title="caf"#.utf8) + [0xE9] + Array(#"">"#.utf8)
        page += Array((Self.postForm + Self.input("SAMLResponse") + "</form>").utf8)
        #expect(try Self.parser.parse(page).message == "QUFB")
    }

    @Test("Error reasons never quote the message")
    func reasonsHoldNoValues() {
        let secret = "U2VjcmV0QXNzZXJ0aW9u"
        let pages = [
            #"<form method="post" action="javascript:\#(secret)">"# + Self.input("SAMLResponse", secret),
            Self.postForm + Self.input("SAMLResponse", secret + "!"),
            Self.postForm + #"<input name="SAMLResponse" value="\#(secret)"#,
            Self.postForm + Self.input("SAMLResponse", secret) + Self.input("SAMLResponse", secret),
        ]
        for page in pages {
            do {
                _ = try Self.parser.parse(page)
                Issue.record("expected an error")
            } catch {
                #expect(!error.reason.contains(secret))
            }
        }
    }
}
