import BenchmarkSupport
import Crypto
import CryptoExtras
import Foundation
import SSOKitConformance
import SSOKitCore
import SSOKitOIDC

/// Full ID-token verification (JWKS cached, every claim check on) against the floor: swift-crypto checking the
/// same signature over the same signing input with the same, already-parsed key.
///
/// Run: `swift run -c release IDTokenBenchmark [seconds-per-round]` (pin to one core with `taskset -c 0`).
@main
struct IDTokenBenchmark {
    static func main() async throws {
        let seconds = CommandLine.arguments.dropFirst().first.flatMap(Double.init) ?? 1.0
        // Off the main actor, as a request handler runs.
        try await Task.detached {
            print("ID-token verification vs. swift-crypto signature check (\(seconds) s per round, best of 3)")
            for signer in [try TestTokenSigner.rsa(keyID: "rsa"), .p256(keyID: "p256"), .ed25519(keyID: "ed")] {
                try await run(signer, seconds: seconds)
            }
        }.value
    }

    static func run(_ signer: TestTokenSigner, seconds: Double) async throws {
        let issuer = "https://idp.example.com"
        let clientID = "benchmark-client"
        let now: Int64 = 1_767_225_600
        let accessToken = "SlAV32hkKG-access-token-value"
        let algorithmName: String
        switch signer.key {
        case .rsa: algorithmName = "RS256"
        case .p256: algorithmName = "ES256"
        case .ed25519: algorithmName = "EdDSA"
        }
        guard let algorithm = JWSAlgorithm(name: algorithmName) else { return }
        if let only = CommandLine.arguments.firstIndex(of: "--only").map({ CommandLine.arguments[$0 + 1] }),
            only != algorithmName
        {
            return
        }
        let claims = TestTokenSigner.claims(
            issuer: issuer, clientID: clientID, now: now,
            extra: [
                "at_hash": "\"\(algorithm.halfHash(of: accessToken))\"", "email": "\"alice@example.com\"",
                "name": "\"Alice Example\"",
            ])
        let token = try signer.sign(claims: claims)
        let keySet = try JSONWebKeySet(jsonBytes: Array(TestTokenSigner.jwks([signer]).utf8))
        let verifier = IDTokenVerifier(
            configuration: .init(issuer: issuer, clientID: clientID), keys: StaticKeySource(keySet),
            clock: FixedClock(unixSeconds: now))
        let expectations = IDTokenExpectations(nonce: "n-0S6", maxAge: 3600, accessToken: accessToken)
        _ = try await verifier.verify(token, expecting: expectations)

        let parts = token.split(separator: ".")
        let signingInput = Array("\(parts[0]).\(parts[1])".utf8)
        guard let signature = Base64URL.decode(String(parts[2])) else { return }
        let floor = try floorCheck(keySet.keys[0].material, signature: signature, signingInput: signingInput)

        var bestFull: BenchmarkStatistics?
        var bestFloor: BenchmarkStatistics?
        for _ in 0..<3 {
            let floorRun = await measure(seconds: seconds) {
                if !floor() { fatalError("floor check failed") }
            }
            let fullRun = try await measure(seconds: seconds) {
                _ = try await verifier.verify(token, expecting: expectations)
            }
            if floorRun.opsPerSecond > (bestFloor?.opsPerSecond ?? 0) { bestFloor = floorRun }
            if fullRun.opsPerSecond > (bestFull?.opsPerSecond ?? 0) { bestFull = fullRun }
        }
        guard let bestFull, let bestFloor else { return }
        let ratio = bestFull.opsPerSecond / bestFloor.opsPerSecond
        print(
            "\(algorithmName.padding(toLength: 6, withPad: " ", startingAt: 0)) full verification: \(bestFull.summary)")
        print("       swift-crypto floor: \(bestFloor.summary)")
        let overhead = (1 / bestFull.opsPerSecond - 1 / bestFloor.opsPerSecond) * 1e6
        print(
            "       ratio full/floor: \(String(format: "%.3f", ratio))  (overhead \(String(format: "%.2f", overhead)) µs/token)"
        )
        if CommandLine.arguments.contains("--breakdown") {
            await OverheadBreakdown.run(
                token: token, keySet: keySet, algorithm: algorithm, accessToken: accessToken, verifier: verifier,
                expectations: expectations)
        }
    }

    static func floorCheck(_ material: VerificationKey.Material, signature: [UInt8], signingInput: [UInt8]) throws
        -> () -> Bool
    {
        switch material {
        case .rsa(let key):
            return {
                let parsed = _RSA.Signing.RSASignature(rawRepresentation: signature)
                return key.isValidSignature(parsed, for: SHA256.hash(data: signingInput), padding: .insecurePKCS1v1_5)
            }
        case .p256(let key):
            return {
                guard let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
                return key.isValidSignature(parsed, for: signingInput)
            }
        case .ed25519(let key):
            return { key.isValidSignature(signature, for: signingInput) }
        default:
            return { false }
        }
    }
}
