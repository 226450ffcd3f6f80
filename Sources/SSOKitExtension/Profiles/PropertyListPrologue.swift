/// The checks an XML property list passes before it is read.
///
/// Every real `.mobileconfig` starts with Apple's `<!DOCTYPE plist PUBLIC ...>`, which is harmless: nothing loads
/// it. Entity declarations and internal DTD subsets are another matter: a profile that declares one, or any other
/// markup, anywhere in the document, is refused here by name before ``XMLPropertyListReader`` (which refuses them
/// too, and knows no entity but the five predefined ones) sees a byte.
enum PropertyListPrologue {
    /// Throws ``ProfileError/Code-swift.struct/entityDeclarationsRefused`` when `bytes` declare entities, hold an
    /// internal DTD subset, or any other markup declaration.
    static func check(_ bytes: [UInt8]) throws(ProfileError) {
        let declaration = Array("<!".utf8)
        var index = 0
        while let start = firstIndex(of: declaration, in: bytes, from: index) {
            let rest = bytes[(start + 2)...]
            // A comment or CDATA section is skipped whole: what it holds is text, not markup.
            if rest.starts(with: "--".utf8) || rest.starts(with: "[CDATA[".utf8) {
                let terminator = Array((rest.starts(with: "--".utf8) ? "-->" : "]]>").utf8)
                guard let end = firstIndex(of: terminator, in: bytes, from: start + 4) else { return }
                index = end + terminator.count
                continue
            }
            guard startsCaseInsensitive(rest, with: "DOCTYPE") else {
                throw ProfileError(
                    .entityDeclarationsRefused,
                    "the property list holds a markup declaration (<!ENTITY, <!ELEMENT, ...)")
            }
            // A DOCTYPE ends at the first '>' unless it opens an internal subset with '[' before that.
            guard let end = rest.firstIndex(where: { $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "[") }),
                bytes[end] == UInt8(ascii: ">")
            else {
                throw ProfileError(
                    .entityDeclarationsRefused,
                    "the property list's DOCTYPE has an internal subset (entity declarations)")
            }
            index = end + 1
        }
    }

    private static func startsCaseInsensitive(_ bytes: ArraySlice<UInt8>, with word: String) -> Bool {
        let expected = Array(word.utf8)
        guard bytes.count >= expected.count else { return false }
        return zip(bytes.prefix(expected.count), expected).allSatisfy { $0 | 0x20 == $1 | 0x20 }
    }

    private static func firstIndex(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard needle.count <= bytes.count, start <= bytes.count - needle.count else { return nil }
        var index = start
        while index <= bytes.count - needle.count {
            if bytes[index] == needle[0] && bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
