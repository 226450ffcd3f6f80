import Foundation
import SSOKitCore

extension URL {
    /// This URL with `pairs` form-encoded and appended to any query it already has (the way authorization and
    /// end-session endpoints take their parameters).
    func appendingQuery(_ pairs: [(String, String)]) -> URL {
        let base = absoluteString
        let separator = base.contains("?") ? "&" : "?"
        return URL(string: base + separator + FormURLEncoding.encode(pairs)) ?? self
    }
}
