import Foundation
import SSOKitRights

/// Asks for passphrases on the terminal with echo off, or takes `SSOKIT_PASSPHRASE` from the environment (for
/// scripts and tests).
struct TerminalAuthenticator: RightAuthenticator {
    let environmentPassphrase: String?

    init() { environmentPassphrase = ProcessInfo.processInfo.environment["SSOKIT_PASSPHRASE"] }

    func passphrase(for request: PassphraseRequest) async -> String? {
        if let environmentPassphrase { return environmentPassphrase }
        return Self.prompt("\(request.localizedReason): \(request.label): ")
    }

    /// Reads one line from /dev/tty without echo; nil when there is no terminal or on end of input.
    static func prompt(_ text: String) -> String? {
        prompt(text, echo: false)
    }

    /// Reads one line from /dev/tty, echoed or not; nil when there is no terminal or on end of input.
    static func prompt(_ text: String, echo: Bool) -> String? {
        let descriptor = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        _ = text.utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count - 1) }
        var saved = termios()
        let hasTerminal = tcgetattr(descriptor, &saved) == 0
        if hasTerminal && !echo {
            var silent = saved
            silent.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(descriptor, TCSAFLUSH, &silent)
        }
        defer {
            if hasTerminal && !echo {
                tcsetattr(descriptor, TCSAFLUSH, &saved)
                _ = write(descriptor, "\n", 1)
            }
        }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while line.count < 1024, read(descriptor, &byte, 1) == 1, byte != 10 { line.append(byte) }
        return String(decoding: line, as: UTF8.self)
    }

    /// A new passphrase: from the environment, or asked twice on the terminal.
    func newPassphrase(label: String) throws -> String {
        if let environmentPassphrase { return environmentPassphrase }
        guard let first = Self.prompt("New passphrase for \(label): "), !first.isEmpty else {
            throw CLIFailure(code: "cancelled", message: "no passphrase was entered")
        }
        guard Self.prompt("Repeat the passphrase: ") == first else {
            throw CLIFailure(code: "passphrase_mismatch", message: "the two passphrases differ")
        }
        return first
    }
}
