/// A start or end tag found by ``HTMLTagScanner``.
///
/// `package`: SSOKitExtension finds IdP login forms with the same scanner.
package struct HTMLTag: Sendable {
    /// One attribute, its name lowercased and its value decoded.
    package struct Attribute: Sendable {
        package var name: String
        package var value: String
    }

    /// The tag name, ASCII-lowercased.
    package var name: String
    /// Whether this is an end tag (`</form>`).
    package var isEndTag: Bool
    /// The attributes, first occurrence of each name only, and only for the tags the scanner was asked about.
    package var attributes: [Attribute]

    /// The value of the attribute called `name` (lowercase), or `nil` when it is absent.
    package func attribute(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }
}

/// A single forward pass over an HTML page that yields its tags, after the HTML tokenizer's rules for tags,
/// attributes, comments and raw-text elements, and nothing else.
///
/// Comments, `<!…>` and `<?…>` declarations are skipped, as is the content of raw-text and RCDATA elements
/// (`script`, `style`, `title`, `textarea`, …) up to their end tag; after `<plaintext>` nothing is markup. Every
/// byte is looked at a bounded number of times, so the work is linear in the page size. Script's escaped states
/// (`<!--` … `<script>` inside a script), `<template>` and foreign (SVG, MathML) content are not modelled.
package struct HTMLTagScanner {
    private let bytes: [UInt8]
    private var index = 0
    private let attributeTags: Set<String>
    /// Set when the page ended inside a tag, comment, declaration or raw-text element, or right after `<` or `</`.
    package private(set) var endedInsideMarkup = false

    /// Elements whose content is text up to their end tag.
    private static let rawTextElements: Set<String> = [
        "script", "style", "title", "textarea", "xmp", "iframe", "noembed", "noframes",
    ]

    /// Prepares a scan of `bytes`, decoding attributes only for the tags named in `attributeTags` (lowercase).
    package init(bytes: [UInt8], attributeTags: Set<String>) {
        self.bytes = bytes
        self.attributeTags = attributeTags
    }

    /// The next tag, or `nil` at the end of the page.
    package mutating func next() -> HTMLTag? {
        while let open = position(of: UInt8(ascii: "<"), from: index) {
            index = open + 1
            guard index < bytes.count else { return truncated() }
            let byte = bytes[index]
            if isASCIILetter(byte) {
                return startTag()
            } else if byte == UInt8(ascii: "/") {
                if let tag = endTag() { return tag }
            } else if byte == UInt8(ascii: "!") {
                skipDeclaration()
            } else if byte == UInt8(ascii: "?") {
                skipBogusComment()
            }
        }
        index = bytes.count
        return nil
    }

    /// Lexes the start tag whose name begins at `index`, then skips raw text if the element has some.
    private mutating func startTag() -> HTMLTag? {
        guard let tag = lexTag(isEndTag: false) else { return nil }
        if tag.name == "plaintext" {
            index = bytes.count
        } else if Self.rawTextElements.contains(tag.name) {
            skipRawText(until: tag.name)
        }
        return tag
    }

    /// Handles `</`: an end tag, `</>` (ignored) or a bogus comment. Returns `nil` when no tag came of it.
    private mutating func endTag() -> HTMLTag? {
        index += 1
        guard index < bytes.count else { return truncated() }
        if isASCIILetter(bytes[index]) {
            return lexTag(isEndTag: true)
        }
        if bytes[index] == UInt8(ascii: ">") {
            index += 1
        } else {
            skipBogusComment()
        }
        return nil
    }

    /// Lexes a tag name and its attributes; `nil` (and ``endedInsideMarkup``) when the page ends first.
    private mutating func lexTag(isEndTag: Bool) -> HTMLTag? {
        let nameStart = index
        while index < bytes.count, !isTagBreak(bytes[index]) {
            index += 1
        }
        let name = String(decoding: bytes[nameStart..<index].map(lowercased), as: UTF8.self)
        let keepsAttributes = !isEndTag && attributeTags.contains(name)
        var attributes: [HTMLTag.Attribute] = []
        while true {
            while index < bytes.count, isWhitespace(bytes[index]) || bytes[index] == UInt8(ascii: "/") {
                index += 1
            }
            guard index < bytes.count else { return truncated() }
            if bytes[index] == UInt8(ascii: ">") {
                index += 1
                return HTMLTag(name: name, isEndTag: isEndTag, attributes: attributes)
            }
            guard let (attributeName, value) = lexAttribute() else { return truncated() }
            guard keepsAttributes else { continue }
            let lowercasedName = String(decoding: bytes[attributeName].map(lowercased), as: UTF8.self)
            if !attributes.contains(where: { $0.name == lowercasedName }) {
                let decoded = HTMLAttributeText.decode(bytes[value])
                attributes.append(HTMLTag.Attribute(name: lowercasedName, value: decoded))
            }
        }
    }

    /// Lexes one attribute starting at `index`, returning the ranges of its name and raw value (empty when it has
    /// none), or `nil` when the page ends first.
    private mutating func lexAttribute() -> (name: Range<Int>, value: Range<Int>)? {
        let nameStart = index
        index += 1  // The first character may be `=`.
        while index < bytes.count, !isTagBreak(bytes[index]), bytes[index] != UInt8(ascii: "=") {
            index += 1
        }
        let name = nameStart..<index
        skipWhitespace()
        guard index < bytes.count else { return nil }
        guard bytes[index] == UInt8(ascii: "=") else { return (name, index..<index) }
        index += 1
        skipWhitespace()
        guard index < bytes.count else { return nil }
        let quote = bytes[index]
        if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
            guard let close = position(of: quote, from: index + 1) else { return nil }
            defer { index = close + 1 }
            return (name, index + 1..<close)
        }
        let valueStart = index
        while index < bytes.count, !isWhitespace(bytes[index]), bytes[index] != UInt8(ascii: ">") {
            index += 1
        }
        return (name, valueStart..<index)
    }

    /// Skips `<!…`: a comment (`<!-- … -->`, also ended by `--!>`; `<!-->` and `<!--->` are empty ones) or any
    /// other declaration up to `>`.
    private mutating func skipDeclaration() {
        guard index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "-"), bytes[index + 2] == UInt8(ascii: "-")
        else {
            return skipBogusComment()
        }
        let start = index + 3
        if matches(">", at: start) {
            index = start + 1
            return
        }
        if matches("->", at: start) {
            index = start + 2
            return
        }
        // The comment ends at the first `>` after `--` or `--!` that lie past its start.
        var cursor = start
        while let close = position(of: UInt8(ascii: ">"), from: cursor) {
            if close - 2 >= start, matches("--", at: close - 2) || (close - 3 >= start && matches("--!", at: close - 3))
            {
                index = close + 1
                return
            }
            cursor = close + 1
        }
        _ = truncated()
    }

    /// Skips to just after the next `>`.
    private mutating func skipBogusComment() {
        guard let close = position(of: UInt8(ascii: ">"), from: index) else {
            _ = truncated()
            return
        }
        index = close + 1
    }

    /// Moves `index` to the `</name` (any case, then whitespace, `/` or `>`) that ends a raw-text element.
    private mutating func skipRawText(until name: String) {
        let name = Array(name.utf8)
        var cursor = index
        while let open = position(of: UInt8(ascii: "<"), from: cursor) {
            cursor = open + 1
            guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "/") else { continue }
            let nameStart = cursor + 1
            let nameEnd = nameStart + name.count
            guard nameEnd < bytes.count,
                zip(bytes[nameStart..<nameEnd], name).allSatisfy({ lowercased($0) == $1 }),
                isTagBreak(bytes[nameEnd])
            else { continue }
            index = open
            return
        }
        _ = truncated()
    }

    /// Records that the page ended inside markup and moves to the end.
    private mutating func truncated() -> HTMLTag? {
        endedInsideMarkup = true
        index = bytes.count
        return nil
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, isWhitespace(bytes[index]) {
            index += 1
        }
    }

    private func position(of byte: UInt8, from start: Int) -> Int? {
        var position = start
        while position < bytes.count {
            if bytes[position] == byte { return position }
            position += 1
        }
        return nil
    }

    /// Whether the bytes at `start` are `literal` (ASCII).
    private func matches(_ literal: String, at start: Int) -> Bool {
        var position = start
        for byte in literal.utf8 {
            guard position < bytes.count, bytes[position] == byte else { return false }
            position += 1
        }
        return true
    }

    private func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    /// Whitespace, `/` or `>`: what ends a tag or attribute name.
    private func isTagBreak(_ byte: UInt8) -> Bool {
        isWhitespace(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">")
    }

    private func isASCIILetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    private func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}
