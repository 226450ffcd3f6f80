import ArgumentParser
import Foundation
import SSOKitCore

/// `--now T`: ISO 8601 (`2026-01-01T00:00:00Z`) or integer Unix seconds.
struct TimeArgument: ExpressibleByArgument {
    let date: Date

    init?(argument: String) {
        if let seconds = Int64(argument) {
            date = Date(timeIntervalSince1970: TimeInterval(seconds))
            return
        }
        let formatter = ISO8601DateFormatter()
        if let parsed = formatter.date(from: argument) {
            date = parsed
            return
        }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        guard let parsed = formatter.date(from: argument) else { return nil }
        date = parsed
    }

    static func clock(_ argument: TimeArgument?) -> any SSOKitClock {
        argument.map { FixedClock($0.date) } ?? SystemClock()
    }
}
