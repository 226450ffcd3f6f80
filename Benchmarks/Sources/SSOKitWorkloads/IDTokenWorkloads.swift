import Crypto
import CryptoExtras
import SSOKitCore
import SSOKitOIDC

/// ID-token verification (JWKS cached, every claim check on) and its floor: swift-crypto checking the same
/// signature over the same signing input with the same, already-parsed key. The tokens are the fixtures
/// `id-token-{rs256,es256,eddsa}-valid` (fixed keys and signatures, so instruction counts repeat), verified against
/// the fixtures' JWK set with a nonce and a max_age expectation.
enum IDTokenWorkloads {
    static let algorithms = ["RS256", "ES256", "EdDSA"]

    static var all: [Workload] {
        algorithms.flatMap { name in
            let tag = name.lowercased()
            return [
                Workload("IDToken", "\(tag)-verify") {
                    let setup = try await IDTokenSetup(algorithm: name)
                    return .async { _ = try await setup.verifier.verify(setup.token, expecting: setup.expectations) }
                },
                Workload("IDToken", "\(tag)-floor-swift-crypto") {
                    let check = try await IDTokenSetup(algorithm: name).floor()
                    return .sync { guard check() else { throw WorkloadFailure("the floor check failed") } }
                },
            ] + breakdown(name, tag)
        }
    }

    /// The steps around the signature check, one at a time, to show where the overhead goes (not gated).
    static func breakdown(_ name: String, _ tag: String) -> [Workload] {
        [
            Workload("IDToken", "\(tag)-verify-no-claim-checks", gated: false) {
                let setup = try await IDTokenSetup(algorithm: name)
                var configuration = setup.verifier.configuration
                configuration.checks = []
                let verifier = IDTokenVerifier(
                    configuration: configuration, keys: setup.verifier.keys, clock: setup.verifier.clock)
                return .async { _ = try await verifier.verify(setup.token, expecting: setup.expectations) }
            },
            Workload("IDToken", "\(tag)-key-is-valid-signature", gated: false) {
                let setup = try await IDTokenSetup(algorithm: name)
                let key = setup.keySet.key(for: setup.keyID, algorithm: setup.algorithm)
                guard let key else { throw WorkloadFailure("no key for \(name)") }
                return .sync {
                    let valid = setup.signature.withUnsafeBytes { signature in
                        setup.signingInput.withUnsafeBytes { input in
                            key.isValidSignature(signature, for: input, algorithm: setup.algorithm)
                        }
                    }
                    guard valid else { throw WorkloadFailure("invalid signature") }
                }
            },
            Workload("IDToken", "\(tag)-base64url-decode-3-parts", gated: false) {
                let parts = try await IDTokenSetup(algorithm: name).token.split(separator: ".").map(String.init)
                return .sync {
                    for part in parts where Base64URL.decode(part) == nil { throw WorkloadFailure("not base64url") }
                }
            },
            Workload("IDToken", "\(tag)-key-lookup", gated: false) {
                let setup = try await IDTokenSetup(algorithm: name)
                return .sync {
                    guard setup.keySet.key(for: setup.keyID, algorithm: setup.algorithm) != nil else {
                        throw WorkloadFailure("no key")
                    }
                }
            },
            Workload("IDToken", "\(tag)-at-hash", gated: false) {
                let algorithm = try await IDTokenSetup(algorithm: name).algorithm
                return .sync {
                    guard !algorithm.halfHash(of: "SlAV32hkKG-access-token-value").isEmpty else {
                        throw WorkloadFailure("empty at_hash")
                    }
                }
            },
        ]
    }
}

/// A verifier, a token and everything around it, for one algorithm.
struct IDTokenSetup: Sendable {
    let algorithm: JWSAlgorithm
    let token: String
    let keyID: String?
    let keySet: JSONWebKeySet
    let verifier: IDTokenVerifier
    let expectations: IDTokenExpectations
    let signature: [UInt8]
    let signingInput: [UInt8]

    init(algorithm name: String) async throws {
        guard let algorithm = JWSAlgorithm(name: name) else { throw WorkloadFailure("unknown algorithm \(name)") }
        let fixture = try fixtureObject("oidc/cases/id-token-\(name.lowercased())-valid.json")
        guard let token = fixture["token"] as? String, let issuer = fixture["issuer"] as? String,
            let clientID = fixture["client_id"] as? String, let jwks = fixture["jwks"] as? String,
            let now = fixture["now"] as? Int, let nonce = fixture["nonce"] as? String
        else { throw WorkloadFailure("id-token-\(name.lowercased())-valid.json lacks a member") }
        self.algorithm = algorithm
        self.token = token
        keySet = try JSONWebKeySet(jsonBytes: try fixtureBytes("oidc/\(jwks)"))
        verifier = IDTokenVerifier(
            configuration: .init(issuer: issuer, clientID: clientID), keys: StaticKeySource(keySet),
            clock: FixedClock(unixSeconds: Int64(now)))
        expectations = IDTokenExpectations(nonce: nonce, maxAge: 3600)
        let parts = token.split(separator: ".")
        guard parts.count == 3, let signature = Base64URL.decode(String(parts[2])),
            let header = Base64URL.decode(String(parts[0])),
            let kid = String(decoding: header, as: UTF8.self).firstMatch(of: /"kid":"([^"]+)"/)
        else { throw WorkloadFailure("the token is not a compact JWS with a kid") }
        keyID = String(kid.1)
        self.signature = signature
        signingInput = Array("\(parts[0]).\(parts[1])".utf8)
        _ = try await verifier.verify(token, expecting: expectations)
    }

    /// swift-crypto's check of the token's signature with the already-parsed key: the floor.
    func floor() throws -> () -> Bool {
        guard let key = keySet.key(for: keyID, algorithm: algorithm) else { throw WorkloadFailure("no key") }
        let signature = signature
        let signingInput = signingInput
        switch key.material {
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
            throw WorkloadFailure("no floor for this key type")
        }
    }
}
