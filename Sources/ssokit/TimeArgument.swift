import ArgumentParser
import Foundation
import SSOKitCore
import SSOKitSAML

/// `--now T`: ISO 8601 (`2026-01-01T00:00:00Z`) or integer Unix seconds.
struct TimeArgument: ExpressibleByArgument {
    let date: Date

    init?(argument: String) {
        if let seconds = Int64(argument) {
            date = Date(timeIntervalSince1970: TimeInterval(seconds))
            return
        }
        // SSOKit's one date parser: strict xs:dateTime / RFC 3339 (see SAMLDateTime).
        guard let parsed = SAMLDateTime.parse(argument) else { return nil }
        date = parsed
    }

    static func clock(_ argument: TimeArgument?) -> any SSOKitClock {
        argument.map { FixedClock($0.date) } ?? SystemClock()
    }
}
