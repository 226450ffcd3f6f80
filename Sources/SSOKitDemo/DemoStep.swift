import SSOKitCore
import SSOKitOIDC

/// One step of the demo as it is reported: what was shown, whether it held, how long it took and how big the
/// compact answer that carried it was.
public struct DemoStep: Sendable, Hashable {
    /// A short name (`browser_oidc`, `native_refresh`, ...).
    public var name: String
    /// Whether the step showed what it is meant to show.
    public var ok: Bool
    /// Wall time of the step, in milliseconds.
    public var milliseconds: Int
    /// The size of the compact HTTP response that carried the step (status line, headers and body, as the adapter
    /// counts them), when one did.
    public var responseBytes: Int?
    /// One readable sentence: what happened.
    public var detail: String

    /// Creates a step.
    public init(name: String, ok: Bool, milliseconds: Int, responseBytes: Int?, detail: String) {
        self.name = name
        self.ok = ok
        self.milliseconds = milliseconds
        self.responseBytes = responseBytes
        self.detail = detail
    }

    /// The object `ssokit demo --json` prints for the step (CLI-CONTRACT.md).
    public var jsonObject: JSONValue {
        .object([
            "step": .string(name), "ok": .bool(ok), "ms": .integer(Int64(milliseconds)),
            "response_bytes": responseBytes.map { .integer(Int64($0)) } ?? .null, "detail": .string(detail),
        ])
    }

    /// The line `ssokit demo` prints for the step.
    public var line: String {
        let size = responseBytes.map { ", \($0) B answer" } ?? ""
        return "\(ok ? "ok  " : "FAIL") \(name) (\(milliseconds) ms\(size)): \(detail)"
    }
}
