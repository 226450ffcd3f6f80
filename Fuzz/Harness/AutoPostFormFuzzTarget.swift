import Foundation
import SSOKitSAML

extension FuzzTarget {
    /// An IdP's auto-post page: the HTML tag scanner, form selection, URL resolution and value checks, with and
    /// without a page URL. Whatever it finds must survive a round trip: the compact form SSOKit writes for the
    /// content parses back to the same content.
    public static let autoPostForm = FuzzTarget(
        name: "auto-post-form",
        summary: "AutoPostFormParser on HTML pages; compactForm(html) must parse back to the same content",
        body: .sync { input in
            let pageURLs: [URL?] = [URL(string: "https://idp.example.com/saml/sso/post?x=1"), nil]
            return FuzzVerdict.combining(
                pageURLs.map { pageURL in
                    let content: AutoPostFormContent
                    do throws(SAMLError) {
                        content = try AutoPostFormParser().parse(input, pageURL: pageURL)
                    } catch {
                        return .rejected(error.code.description)
                    }
                    guard let form = try? content.compactForm(scriptNonce: "bm9uY2U") else {
                        return .rejected("not_compactable")
                    }
                    guard (try? AutoPostFormParser().parse(form.html)) == content else {
                        return .violated("the compact form does not parse back to the content it was made from")
                    }
                    return .accepted
                })
        },
        seeds: {
            var seeds: [String: [UInt8]] = [:]
            let acs = "https://sp.example.com/saml/acs"
            for (name, bytes) in try FuzzFixtures.files(in: "saml/responses").sorted(by: { $0.key < $1.key })
                .prefix(8)
            {
                let form = try AutoPostForm(
                    action: acs, kind: .response, message: Data(bytes).base64EncodedString(), relayState: "r1")
                seeds["compact-\(name).html"] = Array(form.html.utf8)
            }
            for (index, page) in handwrittenPages(action: acs).enumerated() {
                seeds["shape-\(index).html"] = Array(page.utf8)
            }
            return seeds
        })

    /// Page shapes IdPs produce, and the tricks the parser must see through.
    private static func handwrittenPages(action: String) -> [String] {
        let message = "PHNhbWxwOlJlc3BvbnNlLz4+Pz8/"
        return [
            #"<html><body onload="document.forms[0].submit()"><form method="post" action="\#(action)">"#
                + #"<input type="hidden" name="SAMLResponse" value="\#(message)"/>"#
                + #"<input type="hidden" name="RelayState" value="a&amp;b&#x3d;c"/></form></body></html>"#,
            #"<!DOCTYPE html><head><base href="https://sp.example.com/saml/"><title><form></title></head>"#
                + #"<FORM METHOD=POST ACTION=acs><INPUT TYPE=hidden NAME=SAMLRequest VALUE='\#(message)'>"#
                + "<noscript><input type=submit value=Go></noscript></FORM>",
            #"<!-- <form method="post" action="https://evil.example/"><input name="SAMLResponse" value="QUFB"> -->"#
                + #"<script>var f = '<form method="post" action="https://evil.example/">';</script>"#
                + #"<form method="get" action="https://evil.example/"><input name="SAMLResponse" value="QUFB"></form>"#
                + #"<form method="post" action="\#(action)"><input name="SAMLResponse" value="\#(message)">"#
                + #"<input name="SAMLResponse" disabled value="QUFB"><textarea><input name="RelayState"></textarea>"#,
            #"<form method="post" action="&#x68;ttps://sp.example.com/saml/acs">"#
                + "<input name=\"SAMLResponse\" value=\"PHNh\r\nbWxw\tOlJl\"></form>",
            #"<form method="post" action=""><input name="SAMLResponse" value="\#(message)"></form>"#,
            #"<form method="post" action="javascript:alert(1)"><input name="SAMLResponse" value="\#(message)">"#,
        ]
    }
}
