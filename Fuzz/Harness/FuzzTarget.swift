/// One fuzz target: a name, an entry point that takes one input to a verdict, and seed inputs built from
/// `fixtures/`.
///
/// The entry point calls SSOKit's public API the way a service would. Rejections are typed errors
/// (``FuzzVerdict/rejected(_:)``); anything else the harness checks and finds broken is a
/// ``FuzzVerdict/violated(_:)``, which the libFuzzer driver turns into a crash.
public struct FuzzTarget: Sendable {
    /// How the entry point runs: most are synchronous; ID-token verification is async.
    public enum Body: Sendable {
        /// A synchronous entry point.
        case sync(@Sendable ([UInt8]) -> FuzzVerdict)
        /// An asynchronous one.
        case async(@Sendable ([UInt8]) async -> FuzzVerdict)
    }

    /// The target's name (kebab-case): the driver's `--target=` value and the folder of its corpus and regressions.
    public let name: String
    /// What the target exercises, for `ssokit-fuzz --list` and the README.
    public let summary: String
    /// The entry point.
    public let body: Body
    /// The seed inputs, by file name; built from `fixtures/` each time, never committed.
    public let seeds: @Sendable () throws -> [String: [UInt8]]

    /// Creates a target.
    public init(
        name: String, summary: String, body: Body, seeds: @escaping @Sendable () throws -> [String: [UInt8]]
    ) {
        self.name = name
        self.summary = summary
        self.body = body
        self.seeds = seeds
    }

    /// Whether the entry point is async (its tasks free memory after the callback returns; see Fuzz/README.md).
    public var isAsync: Bool {
        if case .async = body { true } else { false }
    }

    /// Runs one input.
    public func run(_ input: [UInt8]) async -> FuzzVerdict {
        switch body {
        case .sync(let entry): entry(input)
        case .async(let entry): await entry(input)
        }
    }

    /// Runs one input from synchronous code (the libFuzzer callback), blocking the calling thread for async
    /// entry points. Never call it from a task: it would hold a thread of the cooperative pool.
    public func runBlocking(_ input: [UInt8]) -> FuzzVerdict {
        switch body {
        case .sync(let entry): entry(input)
        case .async(let entry): BlockingWait.result(of: { await entry(input) })
        }
    }
}

/// What one input did.
public enum FuzzVerdict: Sendable, Equatable, CustomStringConvertible {
    /// The input was accepted (by at least one of the calls, when a target makes several).
    case accepted
    /// A call refused it with a typed error; the stable code of the first refusal.
    case rejected(String)
    /// A property the harness checks does not hold: a bug, reported like a crash.
    case violated(String)

    /// The verdict when several calls ran on one input: the first violation; else `accepted` when any call
    /// accepted it; else the first rejection.
    public static func combining(_ verdicts: [FuzzVerdict]) -> FuzzVerdict {
        if let violation = verdicts.first(where: { if case .violated = $0 { true } else { false } }) {
            return violation
        }
        if verdicts.contains(.accepted) { return .accepted }
        return verdicts.first ?? .accepted
    }

    /// `accepted`, `rejected(code)` or `violated(reason)`.
    public var description: String {
        switch self {
        case .accepted: "accepted"
        case .rejected(let code): "rejected(\(code))"
        case .violated(let reason): "violated(\(reason))"
        }
    }
}
