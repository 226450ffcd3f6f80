/// Every workload, by suite.
public enum Workloads {
    /// Every workload, in suite order.
    public static var all: [Workload] {
        IDTokenWorkloads.all + SAMLWorkloads.all + TokenCacheWorkloads.all + ProfileMatchWorkloads.all
            + AdapterWorkloads.all + RightsWorkloads.all + PostgresWorkloads.all
    }

    /// The workloads of one package-benchmark suite.
    public static func suite(_ name: String) -> [Workload] {
        all.filter { $0.suite == name }
    }

    /// The workload named `name`.
    public static func named(_ name: String) -> Workload? {
        all.first { $0.name == name }
    }

    /// Whether the PostgreSQL workloads can run (`SSOKIT_BENCH_POSTGRES_URL` is set).
    public static var postgresAvailable: Bool { PostgresWorkloads.url != nil }
}
