/// Reads an XML property list (Apple's PropertyList-1.0 document type) into a ``ProfileValue``, strictly.
///
/// SSOKit reads property lists itself rather than through Foundation's `PropertyListSerialization`: on Linux that
/// parser leaks its error objects on every document it refuses (found by the `profile` fuzz target), accepts forms
/// no profile tool writes (hexadecimal integers, a bare value without `<plist>`), and keeps the last of two equal
/// dictionary keys. This reader accepts what Apple's tools and Python's `plistlib` write and nothing looser:
/// - an optional byte-order mark, XML declaration (UTF-8 only), comments, processing instructions and one
///   `<!DOCTYPE ...>` (no internal subset, no `<` or `>` in its literals) before `<plist>`, which holds one value;
/// - `<dict>` (an ASCII `<key>` before every value, no key twice), `<array>`, `<string>`, `<integer>` (decimal,
///   64-bit), `<real>` (finite), `<true/>`, `<false/>`, `<date>` (`YYYY-MM-DDThh:mm:ssZ`) and `<data>` (padded
///   base64), the last four in plain ASCII;
/// - in a `<string>` or `<key>`, the five predefined entities, character references to XML characters, CDATA
///   sections and comments; no more than 30 combining marks in a row.
///
/// Where parsers disagree, the input is refused (Foundation ends a DOCTYPE at its first `>`, expat at the first one
/// outside quotes; Swift finds `K` and the Kelvin sign equal) or read as Apple's parser reads it (a carriage return
/// is kept; a comment ends at the first `-->`), so that a profile cannot mean one thing to Apple's tools and
/// another to SSOKit. Nesting deeper
/// than the limit is refused before it is read, so the recursion is bounded; every refusal is a
/// ``ProfileError/Code-swift.struct/malformedProfile`` naming the byte offset, never the profile's content.
struct XMLPropertyListReader {
    private var cursor: XMLCursor
    private let maximumDepth: Int

    /// The value inside `bytes`' `<plist>` element.
    static func read(_ bytes: [UInt8], maximumDepth: Int) throws(ProfileError) -> ProfileValue {
        var reader = XMLPropertyListReader(cursor: XMLCursor(bytes), maximumDepth: maximumDepth)
        return try reader.document()
    }

    private mutating func document() throws(ProfileError) -> ProfileValue {
        cursor.skip([0xEF, 0xBB, 0xBF])
        if cursor.isAt("<?xml") { try cursor.xmlDeclaration() }
        try cursor.skipMiscellany(doctypeAllowed: true)
        let plist = try cursor.openTag()
        guard plist.name == "plist" else { throw cursor.failure("the root element is not <plist>") }
        guard !plist.isEmpty else { throw cursor.failure("<plist> holds no value") }
        try cursor.skipMiscellany(doctypeAllowed: false)
        let value = try value(depth: 0)
        try cursor.skipMiscellany(doctypeAllowed: false)
        guard cursor.isAt("</") else { throw cursor.failure("<plist> holds more than one value") }
        try cursor.closeTag("plist")
        try cursor.skipMiscellany(doctypeAllowed: false)
        guard cursor.isAtEnd else { throw cursor.failure("content follows </plist>") }
        return value
    }

    private mutating func value(depth: Int) throws(ProfileError) -> ProfileValue {
        guard depth <= maximumDepth else {
            throw ProfileError(.malformedProfile, "the property list is nested deeper than \(maximumDepth) levels")
        }
        let tag = try cursor.openTag()
        switch tag.name {
        case "dict": return .dictionary(try dictionary(tag, depth: depth))
        case "array": return .array(try array(tag, depth: depth))
        case "string": return .string(try cursor.text(of: tag))
        case "integer": return .integer(try PropertyListScalar.integer(try cursor.plainText(of: tag)))
        case "real": return .real(try PropertyListScalar.real(try cursor.plainText(of: tag)))
        case "date": return .date(try PropertyListScalar.date(try cursor.plainText(of: tag)))
        case "data": return .data(try PropertyListScalar.data(try cursor.plainText(of: tag)))
        case "true", "false":
            guard try cursor.plainText(of: tag).isEmpty else { throw cursor.failure("<\(tag.name)> is not empty") }
            return .bool(tag.name == "true")
        case "key": throw cursor.failure("a <key> outside a <dict>")
        default: throw cursor.failure("an element that is not a property-list type")
        }
    }

    private mutating func dictionary(_ tag: XMLCursor.Tag, depth: Int) throws(ProfileError) -> [String: ProfileValue] {
        var members: [String: ProfileValue] = [:]
        guard !tag.isEmpty else { return members }
        while true {
            try cursor.skipMiscellany(doctypeAllowed: false)
            if cursor.isAt("</") {
                try cursor.closeTag("dict")
                return members
            }
            let keyTag = try cursor.openTag()
            guard keyTag.name == "key" else { throw cursor.failure("a <dict> value without a <key> before it") }
            let key = try cursor.text(of: keyTag)
            guard key.utf8.allSatisfy({ $0 < 0x80 }) else {
                throw cursor.failure("a <key> that is not ASCII (keys that differ in bytes may compare equal)")
            }
            try cursor.skipMiscellany(doctypeAllowed: false)
            guard !cursor.isAt("</") else { throw cursor.failure("a <key> without a value") }
            guard members[key] == nil else { throw cursor.failure("a <dict> holds the same <key> twice") }
            members[key] = try value(depth: depth + 1)
        }
    }

    private mutating func array(_ tag: XMLCursor.Tag, depth: Int) throws(ProfileError) -> [ProfileValue] {
        var elements: [ProfileValue] = []
        guard !tag.isEmpty else { return elements }
        while true {
            try cursor.skipMiscellany(doctypeAllowed: false)
            if cursor.isAt("</") {
                try cursor.closeTag("array")
                return elements
            }
            elements.append(try value(depth: depth + 1))
        }
    }
}
