import Foundation
import Logging
import SSOKitHummingbird

/// `ssokit serve`'s logs: JSON lines on standard error, one per event.
enum ServeLogging {
    /// Routes every logger of the process to standard error as JSON lines and returns the server's logger.
    static func bootstrap() -> Logger {
        LoggingSystem.bootstrap { label in
            JSONLinesLogHandler(label: label) { line in FileHandle.standardError.write(Data(line.utf8)) }
        }
        return Logger(label: "ssokit.serve")
    }
}
