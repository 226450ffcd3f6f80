import Foundation

/// Reads PEM armour: the DER bytes of each block with a given label.
enum KeyPEM {
    /// The DER of every `-----BEGIN <label>-----` block in `text`, in order.
    static func blocks(labeled label: String, in text: String) -> [[UInt8]] {
        let begin = "-----BEGIN \(label)-----"
        let end = "-----END \(label)-----"
        var result: [[UInt8]] = []
        var rest = Substring(text)
        while let start = rest.range(of: begin) {
            guard let stop = rest.range(of: end, range: start.upperBound..<rest.endIndex) else { break }
            let body = rest[start.upperBound..<stop.lowerBound].filter { !$0.isWhitespace }
            if let data = Data(base64Encoded: String(body)) { result.append(Array(data)) }
            rest = rest[stop.upperBound...]
        }
        return result
    }

    /// PEM armour around DER.
    static func armor(_ der: [UInt8], label: String) -> String {
        let body = Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN \(label)-----\n\(body)\n-----END \(label)-----\n"
    }
}
