import Benchmark
import SSOKitBenchmarkSuites

let benchmarks: @Sendable () -> Void = {
    registerBenchmarks(suite: "SAML")
}
