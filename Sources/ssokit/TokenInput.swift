import Foundation

/// A token given on the command line, in a file, or on standard input (`-`): the last two keep it out of the
/// process list that every local user can read.
enum TokenInput {
    /// The largest token file read; the verifier refuses tokens over its own, smaller cap.
    static let limit = 1 << 20

    /// The token from `argument` (`-` reads standard input) or from `file` (`-` likewise), trimmed of surrounding
    /// whitespace; `nil` when neither is given.
    static func read(argument: String?, file: String?, what: String) throws -> String? {
        let bytes: [UInt8]
        if let file, file != "-" {
            let descriptor = open(file, O_RDONLY | O_CLOEXEC | O_NOCTTY)
            guard descriptor >= 0 else {
                throw CLIFailure(code: "file_unreadable", message: "cannot open the \(what) file \(file)")
            }
            defer { close(descriptor) }
            bytes = try BoundedRead.all(descriptor, limit: limit, name: file)
        } else if file == "-" || argument == "-" {
            bytes = try BoundedRead.all(STDIN_FILENO, limit: limit, name: "standard input")
        } else {
            return argument
        }
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw CLIFailure(code: "malformed_token", message: "the \(what) is empty") }
        return text
    }
}
