import Foundation
import SSOKitSAML

/// Finds the login form in an IdP's page with SSOKitSAML's linear HTML tag scanner (the one that reads auto-post
/// forms): the first POST form holding a password input, else the only POST form with visible text inputs.
///
/// As in HTML: a form inside an open form is ignored; disabled inputs, and inputs outside any form, do not count;
/// a missing action posts to the page's own URL and a relative one is resolved against it. Script, style, comments
/// and the other raw-text elements are skipped.
enum LoginFormParser {
    /// Input types a user types into as plain text.
    private static let textTypes: Set<String> = ["text", "email", "tel", "url", "search", "number", ""]
    /// Most forms or inputs considered on one page.
    private static let maximumElements = 512

    /// The login form of `page` (served from `pageURL`), or nil when it has none.
    static func find(in page: [UInt8], pageURL: URL) -> LoginForm? {
        var scanner = HTMLTagScanner(bytes: page, attributeTags: ["form", "input", "button"])
        var forms: [DraftForm] = []
        var open: DraftForm?
        var elements = 0
        while let tag = scanner.next(), elements < maximumElements {
            switch (tag.name, tag.isEndTag) {
            case ("form", false):
                elements += 1
                if open == nil { open = DraftForm(tag) }
            case ("form", true):
                if let form = open { forms.append(form) }
                open = nil
            case ("input", false), ("button", false):
                elements += 1
                open?.add(tag)
            default:
                break
            }
        }
        if let form = open, !scanner.endedInsideMarkup { forms.append(form) }
        let posting = forms.filter(\.isPost)
        let chosen =
            posting.first { form in form.fields.contains(where: \.isSecret) }
            ?? { () -> DraftForm? in
                let withText = posting.filter { !$0.fields.isEmpty }
                return withText.count == 1 ? withText[0] : nil
            }()
        return chosen.flatMap { $0.loginForm(pageURL: pageURL) }
    }

    /// A form being read.
    private struct DraftForm {
        let method: String
        let action: String
        var hidden: [LoginForm.NamedValue] = []
        var fields: [CredentialField] = []
        var submit: LoginForm.NamedValue?
        var sawSubmit = false

        init(_ tag: HTMLTag) {
            method = (tag.attribute("method") ?? "get").lowercased()
            action = tag.attribute("action")?.trimmingASCIISpaces ?? ""
        }

        var isPost: Bool { method == "post" }

        mutating func add(_ tag: HTMLTag) {
            guard tag.attribute("disabled") == nil else { return }
            let type = (tag.attribute("type") ?? (tag.name == "button" ? "submit" : "")).lowercased()
            let name = tag.attribute("name")
            if type == "submit" || type == "image" {
                guard !sawSubmit else { return }
                sawSubmit = true
                if let name, !name.isEmpty {
                    submit = LoginForm.NamedValue(name: name, value: tag.attribute("value") ?? "")
                }
                return
            }
            guard tag.name == "input", let name, !name.isEmpty else { return }
            switch type {
            case "password":
                fields.append(CredentialField(name: name, isSecret: true))
            case "hidden":
                hidden.append(LoginForm.NamedValue(name: name, value: tag.attribute("value") ?? ""))
            case "checkbox", "radio":
                if tag.attribute("checked") != nil {
                    hidden.append(LoginForm.NamedValue(name: name, value: tag.attribute("value") ?? "on"))
                }
            case let other where LoginFormParser.textTypes.contains(other):
                fields.append(CredentialField(name: name, isSecret: false))
            default:
                return
            }
        }

        func loginForm(pageURL: URL) -> LoginForm? {
            guard let target = action.isEmpty ? pageURL : URL(string: action, relativeTo: pageURL)?.absoluteURL,
                let scheme = target.scheme?.lowercased(), scheme == "https" || scheme == "http", target.host != nil
            else { return nil }
            return LoginForm(action: target, hidden: hidden, fields: fields, submit: submit)
        }
    }
}
