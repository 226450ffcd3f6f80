import Foundation

/// Finds the SAML message in an HTML page that auto-posts it (the HTTP-POST binding, SAML Bindings 2.0 §3.5.4),
/// such as an IdP's response page, without running it.
///
/// The page is read in one bounded, linear pass by a small tokenizer that follows HTML's rules for tags, quoted
/// (`"` or `'`) and unquoted attributes, case-insensitive names and character references in attribute values;
/// comments and the content of `script`, `style`, `title`, `textarea` and the other raw-text elements are skipped,
/// so an input inside them does not count. `<noscript>` is read as markup, as a browser without JavaScript would.
///
/// The result comes from the first `<form>` whose method is `post` (any case; a form without a method is a GET
/// form and is skipped) and that holds an input named `SAMLResponse` or `SAMLRequest`. As in HTML:
/// - a `<form>` inside an open form is ignored, and inputs outside any form do not count;
/// - inputs that are `disabled`, or of a type that is not submitted as is (`submit`, `button`, `image`, `reset`,
///   `checkbox`, `radio`, `file`), do not count;
/// - a missing or empty action means the page's own URL; a relative action is resolved against the first
///   `<base href>` before the form, else against the page URL.
///
/// Choices beyond HTML:
/// - The resolved action must be an absolute `http` or `https` URL, under the same rules as
///   ``AutoPostForm/init(action:kind:message:relayState:scriptNonce:)``.
/// - ASCII whitespace in the message is removed (it is base64, and some IdPs wrap it); the rest must be non-empty
///   base64.
/// - The RelayState is returned exactly as found, even when longer than 80 bytes;
///   ``AutoPostFormContent/compactForm(scriptNonce:)`` is where that is refused.
/// - Several messages, or several RelayStates, in the chosen form are refused as ambiguous.
/// - A page that ends inside a tag, comment or script while the chosen form is still open is refused: inputs may
///   be missing.
public struct AutoPostFormParser: Sendable {
    /// The default page size cap: 4 MiB.
    public static let defaultMaximumPageBytes = 4 * 1024 * 1024

    /// Pages longer than this many bytes are refused before being read.
    public var maximumPageBytes: Int

    /// Creates a parser.
    ///
    /// - Parameter maximumPageBytes: The page size cap in bytes.
    public init(maximumPageBytes: Int = Self.defaultMaximumPageBytes) {
        self.maximumPageBytes = maximumPageBytes
    }

    /// Finds the auto-post form in a page.
    ///
    /// - Parameters:
    ///   - page: The HTML page.
    ///   - pageURL: The page's URL, against which relative actions (and `<base href>`) are resolved; without it
    ///     such actions are refused.
    /// - Returns: The form's resolved action, message and RelayState.
    /// - Throws: ``SAMLError`` with ``SAMLError/Code/tooLarge`` for a page over ``maximumPageBytes``,
    ///   ``SAMLError/Code/formNotFound`` when no POST form holds a SAML message (or the page is cut off inside
    ///   that form), ``SAMLError/Code/invalidURL`` for an action that is not absolute `http` or `https`,
    ///   ``SAMLError/Code/invalidEncoding`` for a message that is not base64, and
    ///   ``SAMLError/Code/invalidMessage`` for a form with several messages or RelayStates.
    public func parse(_ page: String, pageURL: URL? = nil) throws(SAMLError) -> AutoPostFormContent {
        try parse(page.utf8, pageURL: pageURL)
    }

    /// Finds the auto-post form in a page given as bytes (read as UTF-8; the values that matter are ASCII).
    ///
    /// - Parameters:
    ///   - page: The HTML page's bytes.
    ///   - pageURL: The page's URL, against which relative actions are resolved.
    /// - Returns: The form's resolved action, message and RelayState.
    /// - Throws: ``SAMLError`` as the `String` overload does.
    public func parse(_ page: some Collection<UInt8>, pageURL: URL? = nil) throws(SAMLError) -> AutoPostFormContent {
        guard page.count <= maximumPageBytes else {
            throw SAMLError(.tooLarge, "the page is larger than \(maximumPageBytes) bytes")
        }
        var scanner = HTMLTagScanner(bytes: Array(page), attributeTags: ["base", "form", "input"])
        var baseURL = pageURL
        var sawBase = false
        var openForm: PendingForm?
        while let tag = scanner.next() {
            switch (tag.name, tag.isEndTag) {
            case ("base", false):
                guard !sawBase, let href = tag.attribute("href") else { break }
                sawBase = true
                baseURL = Self.resolveBase(href, pageURL: pageURL)
            case ("form", false):
                if openForm == nil {
                    openForm = PendingForm(tag, baseURL: baseURL)
                }
            case ("input", false):
                openForm?.add(tag)
            case ("form", true):
                guard let form = openForm else { break }
                openForm = nil
                if let content = try form.content(pageURL: pageURL) {
                    return content
                }
            default:
                break
            }
        }
        if let form = openForm {
            guard !scanner.endedInsideMarkup else {
                throw SAMLError(.formNotFound, "the page ends inside markup before the form is complete")
            }
            if let content = try form.content(pageURL: pageURL) {
                return content
            }
        }
        throw SAMLError(.formNotFound, "no POST form with a SAMLResponse or SAMLRequest input")
    }

    /// The base URL a `<base href>` sets, or the page URL when it cannot be resolved to an absolute URL.
    private static func resolveBase(_ href: String, pageURL: URL?) -> URL? {
        let href = trimmingASCIIWhitespace(href)
        guard (try? AutoPostValidation.checkCharacters(href)) != nil,
            let url = URL(string: href, relativeTo: pageURL)?.absoluteURL, url.scheme != nil
        else {
            return pageURL
        }
        return url
    }

    /// `text` without leading and trailing ASCII whitespace.
    static func trimmingASCIIWhitespace(_ text: String) -> String {
        let bytes = Array(text.utf8)
        guard let first = bytes.firstIndex(where: { !isASCIIWhitespace($0) }),
            let last = bytes.lastIndex(where: { !isASCIIWhitespace($0) })
        else {
            return ""
        }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }

    /// Tab, LF, FF, CR or space.
    static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }
}

/// A `<form>` being read, and the inputs that would be submitted with it.
private struct PendingForm {
    private let method: String?
    private let action: String?
    private let baseURL: URL?
    private var messages: [(kind: AutoPostForm.MessageKind, value: String)] = []
    private var relayStates: [String] = []

    /// Input types whose value is not submitted as is.
    private static let ignoredTypes: Set<String> = ["submit", "button", "image", "reset", "checkbox", "radio", "file"]

    init(_ tag: HTMLTag, baseURL: URL?) {
        method = tag.attribute("method")
        action = tag.attribute("action")
        self.baseURL = baseURL
    }

    /// Records an `<input>` inside the form.
    mutating func add(_ input: HTMLTag) {
        guard input.attribute("disabled") == nil, let name = input.attribute("name") else { return }
        if let type = input.attribute("type"), Self.ignoredTypes.contains(type.lowercased()) {
            return
        }
        let value = input.attribute("value") ?? ""
        if let kind = AutoPostForm.MessageKind(rawValue: name) {
            messages.append((kind, value))
        } else if name == "RelayState" {
            relayStates.append(value)
        }
    }

    /// The form's content, or `nil` when it is not a POST form with a SAML message.
    func content(pageURL: URL?) throws(SAMLError) -> AutoPostFormContent? {
        guard let first = messages.first, method?.lowercased() == "post" else { return nil }
        guard messages.count == 1 else {
            throw SAMLError(.invalidMessage, "the form holds several SAMLResponse or SAMLRequest inputs")
        }
        guard relayStates.count <= 1 else {
            throw SAMLError(.invalidMessage, "the form holds several RelayState inputs")
        }
        let message = first.value.utf8.filter { !AutoPostFormParser.isASCIIWhitespace($0) }
        guard AutoPostValidation.isBase64Text(message, allowingLineBreaks: false) else {
            throw SAMLError(.invalidEncoding, "the \(first.kind.rawValue) value is empty or not base64")
        }
        return AutoPostFormContent(
            action: try resolvedAction(pageURL: pageURL), kind: first.kind,
            message: String(decoding: message, as: UTF8.self), relayState: relayStates.first)
    }

    /// The absolute URL the form posts to.
    private func resolvedAction(pageURL: URL?) throws(SAMLError) -> String {
        let action = AutoPostFormParser.trimmingASCIIWhitespace(self.action ?? "")
        guard !action.isEmpty else {
            // HTML posts a form without an action to the page's own URL.
            guard let pageURL else {
                throw SAMLError(.invalidURL, "the form has no action and no page URL was given")
            }
            let resolved = pageURL.absoluteString
            _ = try AutoPostValidation.actionComponents(resolved)
            return resolved
        }
        try AutoPostValidation.checkCharacters(action)
        if URLComponents(string: action)?.scheme != nil {
            _ = try AutoPostValidation.actionComponents(action)
            return action
        }
        guard let baseURL else {
            throw SAMLError(.invalidURL, "the form action is relative and no page URL was given")
        }
        guard let resolved = URL(string: action, relativeTo: baseURL)?.absoluteString else {
            throw SAMLError(.invalidURL, "the relative form action cannot be resolved")
        }
        _ = try AutoPostValidation.actionComponents(resolved)
        return resolved
    }
}
