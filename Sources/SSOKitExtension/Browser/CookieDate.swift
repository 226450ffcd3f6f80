import Foundation

/// The cookie-date parser of RFC 6265 §5.1.1: the tolerant algorithm browsers use for `Expires`, which finds a time,
/// a day of month, a month and a year among the date's tokens in whatever order and style the server wrote them.
enum CookieDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The instant `text` names, or nil when it is not a cookie date.
    static func parse(_ text: String) -> Date? {
        guard text.utf8.count <= 128 else { return nil }
        var time: (Int, Int, Int)?
        var day: Int?
        var month: Int?
        var year: Int?
        for token in tokens(text) {
            if time == nil, let found = Self.time(token) {
                time = found
            } else if day == nil, let found = digits(token, 1...2) {
                day = found
            } else if month == nil, token.count >= 3,
                let index = months.firstIndex(of: String(token.prefix(3)).lowercased())
            {
                month = index + 1
            } else if year == nil, let found = digits(token, 2...4) {
                year = found
            }
        }
        guard let (hour, minute, second) = time, let day, let month, var year else { return nil }
        if (70...99).contains(year) { year += 1900 } else if (0...69).contains(year) { year += 2000 }
        guard (1...31).contains(day), year >= 1601, hour <= 23, minute <= 59, second <= 59 else { return nil }
        var components = DateComponents()
        (components.year, components.month, components.day) = (year, month, day)
        (components.hour, components.minute, components.second) = (hour, minute, second)
        var calendar = Calendar(identifier: .gregorian)
        guard let utc = TimeZone(identifier: "UTC") else { return nil }
        calendar.timeZone = utc
        guard let date = calendar.date(from: components), calendar.component(.day, from: date) == day else {
            return nil
        }
        return date
    }

    /// The date's tokens: runs of characters that are not delimiters (§5.1.1).
    private static func tokens(_ text: String) -> [Substring] {
        text.split { character in
            guard let value = character.asciiValue else { return false }
            return value == 0x09 || (0x20...0x2F).contains(value) || (0x3B...0x40).contains(value)
                || (0x5B...0x60).contains(value) || (0x7B...0x7E).contains(value)
        }
    }

    /// `hh:mm:ss` with one or two digits each (trailing non-digits allowed).
    private static func time(_ token: Substring) -> (Int, Int, Int)? {
        let parts = token.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let hour = digits(parts[0], 1...2), let minute = digits(parts[1], 1...2),
            let second = digits(parts[2].prefix { $0.isASCII && $0.isNumber }, 1...2)
        else { return nil }
        return (hour, minute, second)
    }

    /// The number that `token` starts with when it has `count` digits (trailing non-digits allowed).
    private static func digits(_ token: Substring, _ count: ClosedRange<Int>) -> Int? {
        let leading = token.prefix { $0.isASCII && $0.isNumber }
        guard count.contains(leading.count) else { return nil }
        return Int(leading)
    }
}
