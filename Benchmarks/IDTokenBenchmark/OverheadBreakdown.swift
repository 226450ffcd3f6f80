import BenchmarkSupport
import SSOKitCore
import SSOKitOIDC

/// Times the per-token steps around the signature check, one at a time, to show where the overhead goes.
enum OverheadBreakdown {
    static func run(
        token: String, keySet: JSONWebKeySet, algorithm: JWSAlgorithm, accessToken: String,
        verifier: IDTokenVerifier, expectations: IDTokenExpectations
    ) async {
        var noChecks = verifier.configuration
        noChecks.checks = []
        let signatureOnly = IDTokenVerifier(configuration: noChecks, keys: verifier.keys, clock: verifier.clock)
        for (name, candidate) in [("verify, every check", verifier), ("verify, no claim checks", signatureOnly)] {
            let statistics = try? await measure(seconds: 0.3) {
                _ = try await candidate.verify(token, expecting: expectations)
            }
            print("         \(name): \(Int(1e9 / (statistics?.opsPerSecond ?? 1))) ns")
        }
        let parts = token.split(separator: ".").map(String.init)
        guard parts.count == 3, let payload = Base64URL.decode(parts[1]),
            let object = try? JSONParser().parse(payload).objectValue
        else { return }
        let keyID = keySet.keys.first?.keyID
        let signature = Base64URL.decode(parts[2]) ?? []
        let signingInput = Array("\(parts[0]).\(parts[1])".utf8)
        let key = keySet.keys[0]
        let steps: [(String, () -> Void)] = [
            (
                "VerificationKey.isValidSignature",
                {
                    signature.withUnsafeBytes { signature in
                        signingInput.withUnsafeBytes { input in
                            _ = key.isValidSignature(signature, for: input, algorithm: algorithm)
                        }
                    }
                }
            ),
            (
                "base64url decode header+payload+signature",
                {
                    _ = Base64URL.decode(parts[0])
                    _ = Base64URL.decode(parts[1])
                    _ = Base64URL.decode(parts[2])
                }
            ),
            ("JSON parse header", { _ = try? JSONParser().parse(Array(parts[0].utf8)) }),
            ("JSON parse payload", { _ = try? JSONParser().parse(payload) }),
            ("typed claims", { _ = try? IDTokenClaims(object) }),
            ("key lookup", { _ = keySet.key(for: keyID, algorithm: algorithm) }),
            ("at_hash", { _ = algorithm.halfHash(of: accessToken) }),
        ]
        for (name, body) in steps {
            let statistics = await measure(seconds: 0.2) { body() }
            let nanoseconds = 1e9 / statistics.opsPerSecond
            print("         \(name): \(Int(nanoseconds)) ns")
        }
    }
}
