/// The scrypt parameters that make each passphrase guess expensive.
public struct PassphraseCost: Sendable, Hashable, Codable {
    /// scrypt's N (a power of two).
    public var rounds: Int
    /// scrypt's r.
    public var blockSize: Int
    /// scrypt's p.
    public var parallelism: Int

    /// N = 2^17, r = 8, p = 1: 128 MiB and about a third of a second of CPU per guess (0.34 s on one core of the
    /// development machine, release build; the `Rights` suite of the Benchmarks package measures it).
    public static let standard = PassphraseCost(rounds: 1 << 17, blockSize: 8, parallelism: 1)
    /// N = 2^10: the smallest cost accepted, for tests only.
    public static let minimumForTests = PassphraseCost(rounds: 1 << 10, blockSize: 8, parallelism: 1)

    /// Creates a cost; see ``isAcceptable`` for the bounds.
    public init(rounds: Int, blockSize: Int, parallelism: Int) {
        self.rounds = rounds
        self.blockSize = blockSize
        self.parallelism = parallelism
    }

    /// Whether the parameters are inside the accepted bounds (N a power of two in 2^10...2^20, r 1...16,
    /// p 1...4), so a stored record cannot make a check cost gigabytes.
    public var isAcceptable: Bool {
        rounds >= 1 << 10 && rounds <= 1 << 20 && rounds & (rounds - 1) == 0 && (1...16).contains(blockSize)
            && (1...4).contains(parallelism)
    }

    /// Memory scrypt needs, with headroom.
    var memoryBound: Int { 128 * blockSize * rounds * (parallelism + 2) }
}
