import SSOKitConformance
import SSOKitOIDC

extension FuzzTarget {
    /// ID-token verification past the signature: the input is the header JSON, a line feed, and the payload JSON
    /// (without a line feed, all of it is the payload under an ES256 header); the harness signs it with the
    /// fixtures' key that the header's `alg` names. Every claim rule runs, for an authentication and for a refresh,
    /// and a fresh verifier must agree with the shared one (which keeps the last header it parsed).
    public static let idToken = FuzzTarget(
        name: "id-token",
        summary: "IDTokenVerifier on tokens the harness signs: header and claims from the input, every claim rule",
        body: .async { input in
            await IDTokenFuzzWorld.shared.runAsync { world in
                let parts = input.split(separator: 0x0A, maxSplits: 1, omittingEmptySubsequences: false)
                let header = parts.count == 2 ? Array(parts[0]) : Array(#"{"alg":"ES256","kid":"ec-p256"}"#.utf8)
                let token = world.signer.token(header: header, payload: Array(parts.last ?? []))
                var verdicts: [FuzzVerdict] = []
                for expectations in [world.oidc.authentication, world.oidc.refresh] {
                    verdicts.append(
                        await FuzzVerdict.oidc { () async throws(OIDCError) in
                            _ = try await world.oidc.verifier.verify(token, expecting: expectations)
                        })
                }
                // The shared verifier keeps the last header it parsed; a fresh one must give the same verdict.
                let shared = world.oidc.verifier
                let fresh = IDTokenVerifier(configuration: shared.configuration, keys: shared.keys, clock: shared.clock)
                let freshVerdict = await FuzzVerdict.oidc { () async throws(OIDCError) in
                    _ = try await fresh.verify(token, expecting: world.oidc.authentication)
                }
                guard freshVerdict == verdicts[0] else {
                    return .violated("a fresh verifier says \(freshVerdict), the one that kept a header \(verdicts[0])")
                }
                return FuzzVerdict.combining(verdicts)
            }
        },
        seeds: {
            var seeds: [String: [UInt8]] = [:]
            for fixture in try FuzzFixtures.cases("oidc/cases") {
                let segments = IDTokenSegments(fixture.string("token") ?? "").jsonSegments
                guard segments.count == 2 else { continue }
                seeds[fixture.name] = segments[0] + [0x0A] + segments[1]
            }
            return seeds
        })
}

/// The OIDC world and the signer of the `id-token` target.
struct IDTokenFuzzWorld: Sendable {
    let oidc: OIDCFuzzWorld
    let signer: FixtureTokenSigner

    static let shared = FuzzSetup {
        IDTokenFuzzWorld(oidc: try OIDCFuzzWorld.shared.loaded.get(), signer: try FixtureTokenSigner())
    }
}
