import Foundation
import SSOKitCore

/// A JWT NumericDate (RFC 7519 §2): seconds since 1970-01-01T00:00:00Z, possibly with a fraction.
///
/// The value is kept as whole seconds (rounded toward negative infinity) plus the exact fraction of the JSON
/// number, so comparisons with the clock are exact: nothing is rounded to whole seconds, in the token's favour or
/// otherwise. A fraction is read as the nearest binary64 value, the precision JSON numbers have.
public struct NumericDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The whole seconds, rounded toward negative infinity.
    public let wholeSeconds: Int64
    /// The part of a second after ``wholeSeconds``, in `0 ..< 1`.
    public let fraction: Double

    /// Whole seconds since the epoch.
    public init(seconds: Int64) {
        wholeSeconds = seconds
        fraction = 0
    }

    /// Seconds since the epoch with a fraction; `nil` for a value that is not finite or beyond the 64-bit range.
    public init?(_ seconds: Double) {
        let floor = seconds.rounded(.down)
        // 2^63 is exactly representable; every double below it (and at or above -2^63) fits in an Int64.
        guard seconds.isFinite, floor >= -9_223_372_036_854_775_808.0, floor < 9_223_372_036_854_775_808.0 else {
            return nil
        }
        wholeSeconds = Int64(floor)
        fraction = seconds - floor  // exact: both are doubles of the same binade or the fraction is 0
    }

    /// A claim's value: an integer, or any other finite JSON number in range; `nil` for anything else.
    public init?(_ value: JSONValue) {
        switch value {
        case .integer(let seconds): self.init(seconds: seconds)
        case .number(let seconds): self.init(seconds)
        default: return nil
        }
    }

    /// The instant of `date`, exactly as the date holds it.
    public init(_ date: Date) {
        // Any date a clock returns is finite and far inside the range; the fallback is never reached.
        self = NumericDate(date.timeIntervalSince1970) ?? NumericDate(seconds: 0)
    }

    /// This instant moved by `seconds`, clamped to the 64-bit range instead of overflowing: time claims come from
    /// the token, and an extreme value such as `"exp": 9223372036854775807` must be judged, not trap.
    public func adding(_ seconds: Int64) -> NumericDate {
        let (sum, overflow) = wholeSeconds.addingReportingOverflow(seconds)
        guard overflow else { return NumericDate(wholeSeconds: sum, fraction: fraction) }
        return seconds > 0 ? NumericDate(wholeSeconds: .max, fraction: 0) : NumericDate(wholeSeconds: .min, fraction: 0)
    }

    /// The instant as a `Date` (to the precision of `Date`).
    public var date: Date {
        Date(timeIntervalSince1970: TimeInterval(wholeSeconds) + fraction)
    }

    /// The seconds as JSON would write them: `1767225600` or `1767225600.5`.
    public var description: String {
        fraction == 0 ? "\(wholeSeconds)" : JSONValue.number(TimeInterval(wholeSeconds) + fraction).jsonText
    }

    /// Earlier instants order first; compared exactly.
    public static func < (lhs: NumericDate, rhs: NumericDate) -> Bool {
        (lhs.wholeSeconds, lhs.fraction) < (rhs.wholeSeconds, rhs.fraction)
    }

    private init(wholeSeconds: Int64, fraction: Double) {
        self.wholeSeconds = wholeSeconds
        self.fraction = fraction
    }
}
