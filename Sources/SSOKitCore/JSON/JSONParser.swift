/// A strict RFC 8259 parser for hostile input: UTF-8 only, a nesting-depth cap, duplicate member names refused
/// (RFC 7515 §4 requires that for JOSE headers), no trailing content.
package struct JSONParser: Sendable {
    /// Why a document was refused.
    package struct Failure: Error, Sendable, Equatable {
        /// The byte offset at which parsing stopped.
        package var offset: Int
        /// What was wrong there.
        package var reason: String
    }

    /// The deepest nesting of arrays and objects accepted.
    package var maximumDepth: Int

    /// Creates a parser.
    package init(maximumDepth: Int = 32) {
        self.maximumDepth = maximumDepth
    }

    /// Parses one JSON document.
    package func parse(_ bytes: some Collection<UInt8>) throws(Failure) -> JSONValue {
        let result: Result<JSONValue, Failure>? = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(Failure) in try parse(buffer) }
        }
        if let result { return try result.get() }
        let array = Array(bytes)
        return try array.withUnsafeBufferPointer { buffer throws(Failure) in try parse(buffer) }
    }

    /// Parses one JSON document from a buffer.
    package func parse(_ buffer: UnsafeBufferPointer<UInt8>) throws(Failure) -> JSONValue {
        var reader = Reader(bytes: buffer, maximumDepth: maximumDepth)
        reader.skipWhitespace()
        let value = try reader.readValue(depth: 0)
        reader.skipWhitespace()
        guard reader.index == buffer.count else { throw reader.failure("trailing content") }
        return value
    }

    /// Parses one JSON document and, when it is an object, returns its members in document order; `nil` when the
    /// document is valid JSON but not an object. Exactly as strict as ``parse(_:)``
    /// (duplicate names refused, same depth cap, same failures), without building the top-level dictionary.
    package func parseObjectMembers(_ buffer: UnsafeBufferPointer<UInt8>) throws(Failure) -> [JSONMember]? {
        var reader = Reader(bytes: buffer, maximumDepth: maximumDepth)
        reader.skipWhitespace()
        guard reader.index < buffer.count, buffer[reader.index] == UInt8(ascii: "{") else {
            _ = try reader.readValue(depth: 0)
            reader.skipWhitespace()
            guard reader.index == buffer.count else { throw reader.failure("trailing content") }
            return nil
        }
        let members = try reader.readMembers(depth: 1)
        if members.hasDuplicateNames { throw reader.failure("duplicate member name") }
        reader.skipWhitespace()
        guard reader.index == buffer.count else { throw reader.failure("trailing content") }
        return members
    }
}

private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    func failure(_ reason: String) -> JSONParser.Failure {
        JSONParser.Failure(offset: index, reason: reason)
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func readValue(depth: Int) throws(JSONParser.Failure) -> JSONValue {
        guard index < bytes.count else { throw failure("unexpected end") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try readObject(depth: depth + 1)
        case UInt8(ascii: "["): return try readArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        default: return try readNumber()
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONParser.Failure) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw failure("unexpected end") }
        let start = literal.utf8Start
        for offset in 0..<count where bytes[index + offset] != start[offset] {
            throw failure("invalid literal")
        }
        index += count
    }

    mutating func readObject(depth: Int) throws(JSONParser.Failure) -> JSONValue {
        // Collect first, then build the dictionary at its final size: one allocation instead of a rehash per growth.
        let pairs = try readMembers(depth: depth)
        var members = [String: JSONValue](minimumCapacity: pairs.count)
        for pair in pairs where members.updateValue(pair.value, forKey: pair.name) != nil {
            throw failure("duplicate member name")
        }
        return .object(members)
    }

    /// Reads an object's members in order, up to and including its `}`; names are not yet checked for duplicates.
    mutating func readMembers(depth: Int) throws(JSONParser.Failure) -> [JSONMember] {
        guard depth <= maximumDepth else { throw failure("nesting too deep") }
        index += 1
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
            index += 1
            return []
        }
        var pairs: [JSONMember] = []
        // 15 members of 64 bytes fit the allocator's fast path (glibc's tcache serves up to 1,032 bytes).
        pairs.reserveCapacity(15)
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("expected a name") }
            let (nameKey, spelledName) = try readName()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure("expected ':'") }
            index += 1
            skipWhitespace()
            pairs.append(JSONMember(nameKey: nameKey, spelledName: spelledName, value: try readValue(depth: depth)))
            skipWhitespace()
            guard index < bytes.count else { throw failure("unexpected end") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return pairs
            } else {
                throw failure("expected ',' or '}'")
            }
        }
    }

    mutating func readArray(depth: Int) throws(JSONParser.Failure) -> JSONValue {
        guard depth <= maximumDepth else { throw failure("nesting too deep") }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try readValue(depth: depth))
            skipWhitespace()
            guard index < bytes.count else { throw failure("unexpected end") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            } else {
                throw failure("expected ',' or ']'")
            }
        }
    }

    /// Reads a member name, `index` at its opening quote. A name of 1 to 16 printable ASCII bytes written without
    /// escapes comes back as its key alone, its raw bytes between the quotes, with no `String` made; any other name
    /// is read by ``readString()`` (every check of a string value) and comes back spelled out, with no key.
    mutating func readName() throws(JSONParser.Failure) -> (key: JSONNameKey, spelled: String?) {
        let start = index + 1
        let limit = min(bytes.count, start + 17)
        var end = start
        // The key is packed as the bytes are scanned: byte i at bits 8i to 8i + 7 of `low` then `high`.
        var low: UInt64 = 0
        var high: UInt64 = 0
        var shift: UInt64 = 0
        while end < limit {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") {
                guard end > start else { break }
                index = end + 1
                return (JSONNameKey(low: low, high: high), nil)
            }
            // A 17th byte that is not the closing quote: too long for a key.
            guard end - start < 16, byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { break }
            if shift < 64 {
                low |= UInt64(byte) &<< shift
            } else {
                high |= UInt64(byte) &<< (shift &- 64)
            }
            shift &+= 8
            end &+= 1
        }
        return (.none, try readString())
    }

    mutating func readString() throws(JSONParser.Failure) -> String {
        index += 1
        let start = index
        var highBits: UInt8 = 0
        // Fast path: no escapes. Eight bytes at a time while none of them is a quote, a backslash or a control
        // character; the byte loop finds which one it is. Each test is the classic word-wide one (a byte below n:
        // (w - n * 0x01…) & ~w & 0x80…, exact as a yes or no for n up to 0x80), a quote or a backslash being a zero
        // byte once the word is xor-ed with it.
        let raw = UnsafeRawBufferPointer(bytes)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        while index + 8 <= raw.count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
            let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
            let stops =
                ((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes) | ((word &- ones &* 0x20) & ~word)
            if stops & highs != 0 { break }
            if word & highs != 0 { highBits = 0x80 }
            index += 8
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                if highBits < 0x80 { return String(decoding: slice, as: UTF8.self) }
                guard let string = String(validating: slice, as: UTF8.self) else { throw failure("invalid UTF-8") }
                if let problem = StreamSafeText.problem(in: string) { throw failure(problem) }
                return string
            }
            highBits |= byte
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw failure("control character in string") }
            index += 1
        }
        var scalars = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                guard let string = String(validating: scalars, as: UTF8.self) else { throw failure("invalid UTF-8") }
                if let problem = StreamSafeText.problem(in: string) { throw failure(problem) }
                return string
            }
            if byte < 0x20 { throw failure("control character in string") }
            if byte != UInt8(ascii: "\\") {
                scalars.append(byte)
                index += 1
                continue
            }
            index += 1
            guard index < bytes.count else { break }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escape)
            case UInt8(ascii: "b"): scalars.append(0x08)
            case UInt8(ascii: "f"): scalars.append(0x0C)
            case UInt8(ascii: "n"): scalars.append(0x0A)
            case UInt8(ascii: "r"): scalars.append(0x0D)
            case UInt8(ascii: "t"): scalars.append(0x09)
            case UInt8(ascii: "u"):
                var code = try readHex4()
                if (0xD800..<0xDC00).contains(code) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u")
                    else { throw failure("unpaired surrogate") }
                    index += 2
                    let low = try readHex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw failure("unpaired surrogate") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(code) {
                    throw failure("unpaired surrogate")
                }
                guard let scalar = Unicode.Scalar(code) else { throw failure("invalid escape") }
                scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
            default:
                throw failure("invalid escape")
            }
        }
        throw failure("unterminated string")
    }

    mutating func readHex4() throws(JSONParser.Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure("unexpected end") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw failure("invalid \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    mutating func readNumber() throws(JSONParser.Failure) -> JSONValue {
        let start = index
        var isInteger = true
        var negative = false
        if index < bytes.count && bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        guard index < bytes.count, isDigit(bytes[index]) else { throw failure("invalid value") }
        // Integers of up to 18 digits are accumulated directly; anything else goes through Double or Int64 parsing.
        var magnitude: Int64 = 0
        let digitsStart = index
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count && isDigit(bytes[index]) {
                // At most 18 digits: below 10^18, so the arithmetic cannot overflow.
                if index - digitsStart < 18 { magnitude = magnitude &* 10 &+ Int64(bytes[index] &- UInt8(ascii: "0")) }
                index += 1
            }
        }
        let integerDigits = index - digitsStart
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw failure("invalid number") }
            while index < bytes.count && isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            isInteger = false
            index += 1
            if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else { throw failure("invalid number") }
            while index < bytes.count && isDigit(bytes[index]) { index += 1 }
        }
        if isInteger && integerDigits <= 18 { return .integer(negative ? -magnitude : magnitude) }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isInteger, let value = Int64(text) { return .integer(value) }
        guard let value = Double(text), value.isFinite else { throw failure("number out of range") }
        return .number(value)
    }

    func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
