/// What the calling app asks the extension to do: an open set of names, as `ASAuthorization.Operation` is.
///
/// ``none`` is a browser request the system intercepted (no operation); ``login``, ``refresh``, ``logout`` and
/// ``implicit`` are the OpenID operations a native app sends; ``configurationRemoved`` and ``directRequest`` are the
/// provider operations; anything else is a custom operation, kept as given.
public struct AuthorizationOperation: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The operation's name; empty for ``none``.
    public let rawValue: String

    /// An operation named exactly `rawValue` (see ``init(parsing:)`` for Apple's spellings).
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// No operation: a request to a managed URL that the system intercepted (a browser or URL session request).
    public static let none = AuthorizationOperation(rawValue: "")
    /// Log in, interactively when needed (`ASAuthorization.OpenIDOperation.operationLogin`).
    public static let login = AuthorizationOperation(rawValue: "login")
    /// Return valid tokens silently, or fail so that the app calls ``login`` (`operationRefresh`).
    public static let refresh = AuthorizationOperation(rawValue: "refresh")
    /// End the app's session (`operationLogout`).
    public static let logout = AuthorizationOperation(rawValue: "logout")
    /// Return tokens, as ``login`` does (`operationImplicit`).
    public static let implicit = AuthorizationOperation(rawValue: "implicit")
    /// The profile that configured the extension was removed: drop everything it stored
    /// (`ASAuthorizationProviderAuthorizationOperation.configurationRemoved`).
    public static let configurationRemoved = AuthorizationOperation(rawValue: "configurationRemoved")
    /// A request the app sends straight to the extension (`directRequest`).
    public static let directRequest = AuthorizationOperation(rawValue: "directRequest")

    private static let known: [AuthorizationOperation] = [
        .login, .refresh, .logout, .implicit, .configurationRemoved, .directRequest,
    ]

    /// Apple's prefixes in front of an operation's name, longest first.
    private static let prefixes = [
        "ASAuthorizationProviderAuthorizationOperation", "ASAuthorization.ProviderAuthorizationOperation.",
        "ASAuthorization.OpenIDOperation.", "ASAuthorizationOperation", "operation", ".",
    ]

    /// Reads an operation as apps and tools write it: `login`, `operationLogin`, `ASAuthorizationOperationLogin`,
    /// `ASAuthorizationProviderAuthorizationOperationConfigurationRemoved`, ... (any case after the prefix), and
    /// `""`, `none` or `null` for ``none``. Other names are custom operations, kept as given.
    public init(parsing text: String) {
        let trimmed = text.trimmingASCIISpaces
        let lowered = trimmed.lowercased()
        if lowered.isEmpty || lowered == "none" || lowered == "null" {
            self = .none
            return
        }
        var name = Substring(trimmed)
        // `ASAuthorization.OpenIDOperation.operationLogin` sheds two prefixes.
        for prefix in Self.prefixes where name.count > prefix.count && name.hasPrefix(prefix) {
            name = name.dropFirst(prefix.count)
        }
        let candidate = name.lowercased()
        self = Self.known.first { $0.rawValue.lowercased() == candidate } ?? AuthorizationOperation(rawValue: trimmed)
    }

    /// The name, or `none`.
    public var description: String { rawValue.isEmpty ? "none" : rawValue }
}

extension String {
    /// The text without leading and trailing spaces, tabs and line breaks.
    var trimmingASCIISpaces: String {
        let bytes = Array(utf8)
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
