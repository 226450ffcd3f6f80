import Foundation
import Synchronization

/// The parsed protected header of the last token a verifier read, under the header segment's exact bytes.
///
/// An identity provider signs every token with the same header (`alg`, `kid`, `typ`) until it rotates its key, so
/// the next token's header segment is almost always the same text: a match skips decoding and parsing it. Parsing is
/// deterministic and a match is byte for byte, so a hit gives exactly what parsing would; only a header that parsed
/// is kept, and only a short one (one entry of at most ``maximumSegmentBytes``, so an attacker's large header costs
/// no memory).
final class JWSHeaderCache: Sendable {
    /// The longest header segment kept, in bytes of base64url text.
    static let maximumSegmentBytes = 512

    private struct Entry: Sendable {
        let segment: [UInt8]
        let header: JWSHeader
    }

    private let entry = Mutex<Entry?>(nil)

    init() {}

    /// The header parsed from exactly `segment`, when it is the one kept.
    func header(for segment: UnsafeRawBufferPointer) -> JWSHeader? {
        entry.withLock { entry -> JWSHeader? in
            guard let entry, entry.segment.count == segment.count, let incoming = segment.baseAddress else {
                return nil
            }
            let same = entry.segment.withUnsafeBytes { kept in
                kept.baseAddress.map { memcmp($0, incoming, segment.count) == 0 } ?? false
            }
            return same ? entry.header : nil
        }
    }

    /// Keeps `header` as the one parsed from `segment`, in place of the last (nothing when `segment` is too long).
    func remember(_ header: JWSHeader, for segment: UnsafeRawBufferPointer) {
        guard segment.count <= Self.maximumSegmentBytes else { return }
        let kept = Entry(segment: Array(segment), header: header)
        entry.withLock { $0 = kept }
    }
}
