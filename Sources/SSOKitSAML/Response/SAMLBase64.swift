import Foundation

/// Base64 as the SAML bindings carry it: standard alphabet with padding; ASCII whitespace (line breaks) tolerated.
enum SAMLBase64 {
    /// Decodes `text`, refusing anything but base64 and whitespace, misplaced padding, and output over `limit`
    /// bytes. One pass over the input, no intermediate copies.
    static func decode(_ text: String, limit: Int) throws(SAMLError) -> [UInt8] {
        var text = text
        let result = text.withUTF8 { input in
            Result { () throws(SAMLError) in try decode(UnsafeRawBufferPointer(input), limit: limit) }
        }
        return try result.get()
    }

    static func decode(_ input: UnsafeRawBufferPointer, limit: Int) throws(SAMLError) -> [UInt8] {
        guard input.count <= limit / 3 * 4 + limit / 16 + 1024 else {
            throw SAMLError(.tooLarge, "the encoded message is larger than the \(limit)-byte limit allows")
        }
        var output: [UInt8] = []
        output.reserveCapacity(input.count / 4 * 3)
        var quantum: UInt32 = 0
        var filled = 0
        var padding = 0
        for byte in input {
            let value = table[Int(byte)]
            switch value {
            case 0...63:
                guard padding == 0 else { throw invalid }
                quantum = quantum << 6 | UInt32(value)
                filled += 1
                if filled == 4 {
                    output.append(UInt8(truncatingIfNeeded: quantum >> 16))
                    output.append(UInt8(truncatingIfNeeded: quantum >> 8))
                    output.append(UInt8(truncatingIfNeeded: quantum))
                    quantum = 0
                    filled = 0
                }
            case whitespace:
                continue
            case pad:
                padding += 1
                guard padding <= 2, filled + padding <= 4, filled >= 2 else { throw invalid }
            default:
                throw invalid
            }
        }
        switch (filled, padding) {
        case (0, 0): break
        case (2, 2):
            guard quantum & 0x0F == 0 else { throw invalid }
            output.append(UInt8(truncatingIfNeeded: quantum >> 4))
        case (3, 1):
            guard quantum & 0x03 == 0 else { throw invalid }
            output.append(UInt8(truncatingIfNeeded: quantum >> 10))
            output.append(UInt8(truncatingIfNeeded: quantum >> 2))
        default:
            throw invalid
        }
        guard !output.isEmpty else { throw invalid }
        guard output.count <= limit else {
            throw SAMLError(.tooLarge, "the decoded message is \(output.count) bytes; the limit is \(limit)")
        }
        return output
    }

    /// Standard base64 with padding, on one line.
    static func encode(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }

    private static var invalid: SAMLError { SAMLError(.invalidEncoding, "the message is not valid base64") }
    private static let whitespace: UInt8 = 0xFE
    private static let pad: UInt8 = 0xFD
    private static let table: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(byte)] = UInt8(index)
        }
        for byte in [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")] {
            table[Int(byte)] = whitespace
        }
        table[Int(UInt8(ascii: "="))] = pad
        return table
    }()
}
