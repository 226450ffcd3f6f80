/// A `Hosts` entry of a Credential payload: a host name matched exactly (ignoring case), or, when it starts with a
/// dot, a domain suffix that matches every host below it (`.example.com` matches `a.example.com`, not
/// `example.com`).
public struct CredentialHost: Sendable, Hashable, CustomStringConvertible {
    /// The entry as the profile wrote it.
    public let entry: String
    /// The normalized host, or the normalized suffix with its leading dot.
    public let name: String
    /// Whether the entry is a domain suffix.
    public var isSuffix: Bool { name.hasPrefix(".") }

    /// Checks an entry: a host name or IP literal, optionally with one leading dot.
    init?(_ entry: String) {
        let suffix = entry.hasPrefix(".")
        let host = HostName.normalized(suffix ? String(entry.dropFirst()) : entry)
        guard HostName.isValid(host), !(suffix && host.contains(":")) else { return nil }
        self.entry = entry
        self.name = suffix ? "." + host : host
    }

    /// The entry as the profile wrote it.
    public var description: String { entry }
}
