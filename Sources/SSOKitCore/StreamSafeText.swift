/// No more than 30 combining marks in a row: the bound of Unicode's Stream-Safe Text Format (UAX #15 §13).
///
/// Swift compares and hashes `String`s by canonical equivalence, which reorders combining marks; on a long run of
/// them that takes time quadratic in the run's length (hashing a 64 KB name of alternating marks took 0.48 s, a
/// 1 MiB one minutes). Text that SSOKit parses from hostile input (JSON strings, profile text) is refused beyond the
/// bound, which no real text comes near.
///
/// The count is of scalars whose canonical combining class is not zero, as written, not after decomposition as
/// UAX #15 counts: the few class-0 scalars that decompose into marks (U+0F73, U+0F75, U+0F81) reset it. Text built
/// to exploit that (30 marks, U+0F73, 30 marks, ...) was measured to stay linear: 1 MiB hashes in about 0.1 s.
package enum StreamSafeText {
    /// The longest run of combining marks (scalars of non-zero canonical combining class) text may hold.
    package static let maximumCombiningRun = 30

    /// The reason `text` is refused, or nil when it is stream-safe.
    package static func problem(in text: String) -> String? {
        var run = 0
        for scalar in text.unicodeScalars {
            // No scalar below U+0300 combines.
            if scalar.value >= 0x300 && scalar.properties.canonicalCombiningClass != .notReordered {
                run += 1
                if run > maximumCombiningRun { return "more than \(maximumCombiningRun) combining marks in a row" }
            } else {
                run = 0
            }
        }
        return nil
    }
}
