import Foundation
import SSOKitCore
import SSOKitRights
import Synchronization

/// Answers passphrase prompts from a script and counts them.
final class ScriptedAuthenticator: RightAuthenticator {
    private let answers: Mutex<[String?]>
    private let asked = Mutex<[PassphraseRequest]>([])

    init(_ answers: [String?]) { self.answers = Mutex(answers) }

    func passphrase(for request: PassphraseRequest) async -> String? {
        asked.withLock { $0.append(request) }
        return answers.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }

    var requests: [PassphraseRequest] { asked.withLock { $0 } }
}

/// Always answers the same passphrase.
struct FixedAuthenticator: RightAuthenticator {
    let answer: String
    func passphrase(for request: PassphraseRequest) async -> String? { answer }
}

/// A fresh temporary directory.
func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("ssokit-rights-\(UUID())")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

extension Array where Element == UInt8 {
    /// Whether `needle` occurs as a contiguous run.
    func contains(run needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= count else { return false }
        return (0...(count - needle.count)).contains { self[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
