import Foundation

/// Reads what an open file descriptor holds, up to a size limit.
enum BoundedRead {
    /// Every byte until end of file; `file_too_large` beyond `limit` bytes. `name` is for messages only.
    static func all(_ descriptor: Int32, limit: Int, name: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count <= limit {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw CLIFailure(code: "file_unreadable", message: "cannot read \(name)") }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
        }
        throw CLIFailure(code: "file_too_large", message: "\(name) is larger than \(limit) bytes")
    }
}
