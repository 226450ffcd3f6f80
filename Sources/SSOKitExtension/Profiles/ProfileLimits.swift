/// Caps applied while a profile is read: every input is hostile.
public struct ProfileLimits: Sendable, Hashable {
    /// The largest profile accepted, signed or not (default 1 MiB).
    public var maximumProfileBytes: Int
    /// The largest file a payload may name (secret, certificate, key, metadata; default 1 MiB).
    public var maximumFileBytes: Int
    /// The deepest nesting of arrays and dictionaries (default 32).
    public var maximumDepth: Int

    /// Creates limits; the defaults suit any real profile.
    public init(maximumProfileBytes: Int = 1 << 20, maximumFileBytes: Int = 1 << 20, maximumDepth: Int = 32) {
        self.maximumProfileBytes = maximumProfileBytes
        self.maximumFileBytes = maximumFileBytes
        self.maximumDepth = maximumDepth
    }
}
