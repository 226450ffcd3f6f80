/// How much scrypt work each password guess costs (N, with r = 8 and p = 1).
public struct DevIdPPasswordCost: Sendable, Hashable {
    /// scrypt's N, a power of two.
    public let rounds: Int

    private init(rounds: Int) { self.rounds = rounds }

    /// N = 2^14: 16 MiB and a few tens of milliseconds per guess in a release build (the default).
    public static let standard = DevIdPPasswordCost(rounds: 1 << 14)
    /// N = 2^10: for test suites that sign in hundreds of times in a debug build; never for a running IdP.
    public static let minimumForTests = DevIdPPasswordCost(rounds: 1 << 10)
}
