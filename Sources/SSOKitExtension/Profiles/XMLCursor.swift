import SSOKitCore

/// A position in an XML document and the lexical pieces ``XMLPropertyListReader`` reads there: tags, character data
/// with its references, comments, processing instructions and the document type declaration.
///
/// It reads the subset of XML 1.0 that property lists use; every way out of that subset is a thrown
/// ``ProfileError`` naming the byte offset, and every scan ends at the end of the bytes.
struct XMLCursor {
    /// An element's start tag: its name and whether it was written `<name/>`.
    struct Tag {
        var name: String
        var isEmpty: Bool
    }

    private let bytes: [UInt8]
    private var index = 0
    private var sawDoctype = false

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { index >= bytes.count }

    /// Whether the bytes at the cursor spell `text`.
    func isAt(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        return text.withUTF8Buffer { expected in
            var offset = 0
            while offset < count {
                if bytes[index + offset] != expected[offset] { return false }
                offset += 1
            }
            return true
        }
    }

    /// Steps over `prefix` when the cursor is at it.
    mutating func skip(_ prefix: [UInt8]) {
        if bytes.count - index >= prefix.count && bytes[index..<(index + prefix.count)].elementsEqual(prefix) {
            index += prefix.count
        }
    }

    /// A malformed-profile error at the cursor.
    func failure(_ reason: String) -> ProfileError {
        ProfileError(.malformedProfile, "the XML property list is malformed at byte \(index): \(reason)")
    }

    /// Reads `<?xml ...?>`, refusing any encoding but UTF-8.
    mutating func xmlDeclaration() throws(ProfileError) {
        let start = index
        try skipProcessingInstruction()
        let declaration = bytes[start..<index]
        let name = Array("encoding".utf8)
        guard let found = firstIndex(of: name, in: declaration) else { return }
        var value = declaration[(found + name.count)...].drop { Self.isSpace($0) || $0 == UInt8(ascii: "=") }
        guard let quote = value.first, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            throw failure("the XML declaration's encoding is not quoted")
        }
        value = value.dropFirst()
        let encoding = value.prefix { $0 != quote }.map {
            $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 + 0x20 : $0
        }
        guard encoding.elementsEqual("utf-8".utf8) || encoding.elementsEqual("utf8".utf8) else {
            throw ProfileError(.unsupportedFormat, "only UTF-8 XML property lists are read")
        }
    }

    /// Skips white space, comments, processing instructions and, where `doctypeAllowed`, one document type
    /// declaration without an internal subset.
    mutating func skipMiscellany(doctypeAllowed: Bool) throws(ProfileError) {
        while true {
            skipSpace()
            if isAt("<!--") {
                try skipComment()
            } else if isAt("<?") {
                guard !isAt("<?xml") || isNameByte(at: index + 5) else {
                    throw failure("an XML declaration that is not at the start")
                }
                try skipProcessingInstruction()
            } else if isAt("<!DOCTYPE") {
                guard doctypeAllowed && !sawDoctype else { throw failure("a document type declaration out of place") }
                sawDoctype = true
                try skipDoctype()
            } else if isAt("<!") && !isAt("<![CDATA[") {
                throw ProfileError(
                    .entityDeclarationsRefused,
                    "the property list holds a markup declaration (<!ENTITY, <!ELEMENT, ...)")
            } else {
                return
            }
        }
    }

    /// Reads a start tag. Only `<plist>` may carry attributes, which are checked for form and ignored.
    mutating func openTag() throws(ProfileError) -> Tag {
        guard !isAtEnd else { throw failure("the document ends where an element was expected") }
        guard isAt("<") && !isAt("</") && !isAt("<!") && !isAt("<?") else {
            throw failure(isAt("<![CDATA[") ? "a CDATA section outside an element" : "an element was expected")
        }
        index += 1
        let name = try name()
        while true {
            let spaced = skipSpace()
            guard !isAtEnd else { throw failure("the document ends inside a tag") }
            if bytes[index] == UInt8(ascii: ">") {
                index += 1
                return Tag(name: name, isEmpty: false)
            }
            if isAt("/>") {
                index += 2
                return Tag(name: name, isEmpty: true)
            }
            guard spaced else { throw failure("a malformed tag") }
            guard name == "plist" else { throw failure("an attribute on a property-list value") }
            try attribute()
        }
    }

    /// Reads `</name>`.
    mutating func closeTag(_ name: String) throws(ProfileError) {
        guard isAt("</") else { throw failure("</\(name)> was expected") }
        index += 2
        let found = try self.name()
        guard found == name else { throw failure("a close tag does not match <\(name)>") }
        skipSpace()
        guard !isAtEnd && bytes[index] == UInt8(ascii: ">") else { throw failure("a malformed close tag") }
        index += 1
    }

    /// The character data of a `<string>` or `<key>`, up to and including its close tag: references resolved,
    /// CDATA sections copied, comments and processing instructions skipped.
    ///
    /// A carriage return is kept as written, as Apple's parser keeps it (and Foundation's writer writes it); an XML
    /// parser such as expat would turn it into a line feed. Refused, wherever they stand: other control characters
    /// (a tab and a line feed aside), U+FFFE and U+FFFF, and more than 30 combining marks in a row, the limit of
    /// Unicode's Stream-Safe Text Format (UAX #15), beyond which comparing and hashing the text (both normalise it)
    /// takes time quadratic in its length.
    mutating func text(of tag: Tag) throws(ProfileError) -> String {
        guard !tag.isEmpty else { return "" }
        var text: [UInt8] = []
        while true {
            guard !isAtEnd else { throw failure("the document ends inside <\(tag.name)>") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "<") {
                if isAt("</") {
                    try closeTag(tag.name)
                    break
                } else if isAt("<![CDATA[") {
                    index += 9
                    let end = try end(of: "]]>", what: "CDATA section")
                    while index < end {
                        try checkCharacter(bytes[index])
                        text.append(bytes[index])
                        index += 1
                    }
                    index = end + 3
                } else if isAt("<!--") {
                    try skipComment()
                } else if isAt("<?") {
                    try skipProcessingInstruction()
                } else {
                    throw failure("an element inside <\(tag.name)>")
                }
            } else if byte == UInt8(ascii: "&") {
                try reference(into: &text)
            } else if isAt("]]>") {
                throw failure("]]> outside a CDATA section")
            } else {
                try checkCharacter(byte)
                text.append(byte)
                index += 1
            }
        }
        guard let string = String(validating: text, as: UTF8.self) else {
            throw failure("text that is not UTF-8 before this point")
        }
        if let problem = StreamSafeText.problem(in: string) { throw failure(problem) }
        guard !string.unicodeScalars.contains(where: { $0.value == 0xFFFE || $0.value == 0xFFFF }) else {
            throw failure("U+FFFE or U+FFFF, which XML does not allow")
        }
        return string
    }

    /// The text of an `<integer>`, `<real>`, `<date>` or `<data>`, up to and including its close tag: printable
    /// ASCII and white space only, with no reference, CDATA section, comment or processing instruction, since no
    /// tool writes them there and parsers disagree on what they mean inside such values.
    mutating func plainText(of tag: Tag) throws(ProfileError) -> String {
        guard !tag.isEmpty else { return "" }
        let start = index
        while !isAtEnd && bytes[index] != UInt8(ascii: "<") {
            let byte = bytes[index]
            guard (byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "&")) || Self.isSpace(byte) else {
                throw failure("<\(tag.name)> holds something other than printable ASCII")
            }
            index += 1
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        try closeTag(tag.name)
        return text
    }

    /// Refuses a byte XML or this reader does not allow in text.
    private func checkCharacter(_ byte: UInt8) throws(ProfileError) {
        guard byte >= 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D else { throw failure("a control character") }
    }

    // MARK: - Pieces

    /// Resolves `&name;` or `&#...;` at the cursor into `text`.
    private mutating func reference(into text: inout [UInt8]) throws(ProfileError) {
        let start = index + 1
        let limit = min(bytes.count, start + 16)
        guard let semicolon = bytes[start..<limit].firstIndex(of: UInt8(ascii: ";")) else {
            throw failure("an unterminated or unknown entity reference")
        }
        let name = bytes[start..<semicolon]
        let scalar: Unicode.Scalar?
        switch String(decoding: name, as: UTF8.self) {
        case "lt": scalar = "<"
        case "gt": scalar = ">"
        case "amp": scalar = "&"
        case "quot": scalar = "\""
        case "apos": scalar = "'"
        default: scalar = Self.characterReference(name)
        }
        guard let scalar else { throw failure("a reference to an undeclared entity or to no XML character") }
        text.append(contentsOf: String(Character(scalar)).utf8)
        index = semicolon + 1
    }

    /// The character `#123` or `#x7B` names, when it is one XML allows.
    private static func characterReference(_ name: ArraySlice<UInt8>) -> Unicode.Scalar? {
        guard name.first == UInt8(ascii: "#") else { return nil }
        var digits = name.dropFirst()
        var radix: UInt32 = 10
        if digits.first == UInt8(ascii: "x") {
            radix = 16
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty else { return nil }
        var value: UInt32 = 0
        for digit in digits {
            guard let number = hexValue(digit), number < radix else { return nil }
            value = value * radix + number
            guard value <= 0x10_FFFF else { return nil }
        }
        let allowed =
            value == 0x09 || value == 0x0A || value == 0x0D || (0x20...0xD7FF).contains(value)
            || (0xE000...0xFFFD).contains(value) || value >= 0x1_0000
        return allowed ? Unicode.Scalar(value) : nil
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// An element or attribute name: ASCII letters, digits, `_`, `-`, `.` and `:`, starting with a letter or `_`,
    /// at most 64 bytes.
    private mutating func name() throws(ProfileError) -> String {
        let start = index
        while !isAtEnd && isNameByte(at: index) && index - start < 64 { index += 1 }
        guard index > start, !isAtEnd, !isNameByte(at: index) else { throw failure("a malformed name") }
        let first = bytes[start]
        guard first == UInt8(ascii: "_") || (first | 0x20 >= UInt8(ascii: "a") && first | 0x20 <= UInt8(ascii: "z"))
        else { throw failure("a malformed name") }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private func isNameByte(at position: Int) -> Bool {
        guard position < bytes.count else { return false }
        let byte = bytes[position]
        let lower = byte | 0x20
        return (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: ":")
    }

    /// `name = "value"` (or single-quoted); the value holds no `<`.
    private mutating func attribute() throws(ProfileError) {
        _ = try name()
        skipSpace()
        guard !isAtEnd && bytes[index] == UInt8(ascii: "=") else { throw failure("an attribute without a value") }
        index += 1
        skipSpace()
        guard !isAtEnd, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
            throw failure("an attribute value that is not quoted")
        }
        let quote = bytes[index]
        index += 1
        while !isAtEnd && bytes[index] != quote {
            guard bytes[index] != UInt8(ascii: "<") else { throw failure("a < inside an attribute value") }
            index += 1
        }
        guard !isAtEnd else { throw failure("the document ends inside an attribute value") }
        index += 1
    }

    /// Skips `<!-- ... -->`, to the first `-->` as Apple's parser does (a `--` inside, which XML 1.0 §2.5 forbids
    /// but hand-written dividers use, is read as part of the comment).
    private mutating func skipComment() throws(ProfileError) {
        index += 4
        index = try end(of: "-->", what: "comment") + 3
    }

    /// Skips `<?target ...?>`; the target is a name.
    private mutating func skipProcessingInstruction() throws(ProfileError) {
        index += 2
        _ = try name()
        index = try end(of: "?>", what: "processing instruction") + 2
    }

    /// Skips `<!DOCTYPE name ...>`. It ends at the first `>`, as every property-list parser agrees: a `>` inside a
    /// quoted literal (where XML would read on, and Foundation would not) is refused, as are `<` and an internal
    /// subset (`[`).
    private mutating func skipDoctype() throws(ProfileError) {
        index += 9
        guard skipSpace() else { throw failure("a malformed document type declaration") }
        var quote: UInt8?
        while !isAtEnd {
            let byte = bytes[index]
            index += 1
            if let open = quote {
                if byte == open { quote = nil }
                guard byte != UInt8(ascii: ">") && byte != UInt8(ascii: "<") else {
                    throw failure("a < or > inside a literal of the document type declaration")
                }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                throw ProfileError(
                    .entityDeclarationsRefused,
                    "the property list's DOCTYPE has an internal subset (entity declarations)")
            } else if byte == UInt8(ascii: "<") {
                throw failure("a < inside the document type declaration")
            } else if byte == UInt8(ascii: ">") {
                return
            }
        }
        throw failure("the document ends inside the document type declaration")
    }

    /// The index where `terminator` next starts, at or after the cursor.
    private func end(of terminator: StaticString, what: String) throws(ProfileError) -> Int {
        var probe = self
        while !probe.isAtEnd {
            if probe.isAt(terminator) { return probe.index }
            probe.index += 1
        }
        throw failure("an unterminated \(what)")
    }

    @discardableResult
    private mutating func skipSpace() -> Bool {
        let start = index
        while !isAtEnd && Self.isSpace(bytes[index]) { index += 1 }
        return index > start
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private func firstIndex(of needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var position = haystack.startIndex
        while position <= haystack.endIndex - needle.count {
            if haystack[position..<(position + needle.count)].elementsEqual(needle) { return position }
            position += 1
        }
        return nil
    }
}
