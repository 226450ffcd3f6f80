/// Where a browser goes once signed in: a path on this service only, so that the sign-in route is no open
/// redirector. A `return_to` value must start with one `/` (not `//`, which a browser reads as another host), hold
/// no backslash (which some browsers read as `/`), no control character or space, and stay under 2 KiB; anything
/// else means the root.
enum ReturnPath {
    static let maximumBytes = 2048

    /// `candidate` when it is a safe local path, else `fallback`.
    static func validated(_ candidate: String?, fallback: String = "/") -> String {
        guard let candidate, candidate.utf8.count <= maximumBytes, candidate.hasPrefix("/"),
            !candidate.hasPrefix("//"), !candidate.hasPrefix("/\\"),
            candidate.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != 0x5C })
        else { return fallback }
        return candidate
    }
}
