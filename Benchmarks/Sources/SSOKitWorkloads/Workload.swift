/// One measured operation, defined once for every harness: the package-benchmark suites time it, `instruction-count`
/// runs it N times under valgrind, `ratios` pairs it with its floor.
///
/// `prepare` builds the state (keys, tokens, caches, documents) and checks the operation once, outside any
/// measurement; the operation it returns is what is measured.
public struct Workload: Sendable {
    /// The measured operation, and what to undo when the measurements are done.
    public struct Operation {
        /// The operation's body: synchronous or asynchronous.
        public enum Body {
            /// A synchronous operation.
            case sync(() throws -> Void)
            /// An asynchronous operation.
            case async(() async throws -> Void)
        }

        /// The body that is measured.
        public let body: Body
        /// Run once after the last measurement (rows a workload wrote to a shared server, say).
        public let teardown: (() async -> Void)?

        /// A synchronous operation.
        public static func sync(_ body: @escaping () throws -> Void) -> Operation {
            Operation(body: .sync(body), teardown: nil)
        }

        /// An asynchronous operation.
        public static func async(_ body: @escaping () async throws -> Void) -> Operation {
            Operation(body: .async(body), teardown: nil)
        }

        /// This operation with `teardown` to run after the last measurement.
        public func withTeardown(_ teardown: @escaping () async -> Void) -> Operation {
            Operation(body: body, teardown: teardown)
        }

        /// Runs the operation once.
        public func callAsFunction() async throws {
            switch body {
            case .sync(let run): try run()
            case .async(let run): try await run()
            }
        }
    }

    /// A unique name, also the key of the instruction baseline: `suite/what`, no spaces.
    public let name: String
    /// The package-benchmark suite that runs it (the target's name).
    public let suite: String
    /// Whether `check.sh` counts its instructions against the baseline (never for a slow one: scrypt at a real
    /// cost takes minutes under valgrind).
    public let gated: Bool
    /// Whether it needs `SSOKIT_BENCH_POSTGRES_URL`.
    public let needsPostgres: Bool
    /// Whether one call takes a large fraction of a second: the suites give it few iterations.
    public let slow: Bool
    /// Builds the state and returns the operation.
    public let prepare: @Sendable () async throws -> Operation

    /// A workload named `suite/what`.
    public init(
        _ suite: String, _ what: String, gated: Bool = true, needsPostgres: Bool = false, slow: Bool = false,
        prepare: @escaping @Sendable () async throws -> Operation
    ) {
        self.name = "\(suite)/\(what)"
        self.suite = suite
        self.gated = gated && !slow
        self.needsPostgres = needsPostgres
        self.slow = slow
        self.prepare = prepare
    }
}

/// A workload failed its own check: the operation did not produce what it must (a valid signature, a cache hit).
public struct WorkloadFailure: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String

    /// A failure saying `description`.
    public init(_ description: String) {
        self.description = description
    }
}
