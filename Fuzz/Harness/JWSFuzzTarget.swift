import SSOKitConformance
import SSOKitOIDC

extension FuzzTarget {
    /// Any bytes as a compact JWS ID token: segment splitting, base64url, the header (alg, kid, crit), key
    /// selection and the signature check with every key type of the fixtures' key sets.
    public static let jws = FuzzTarget(
        name: "jws",
        summary: "IDTokenVerifier on raw compact JWS: segments, base64url, header, key selection, signatures",
        body: .async { input in
            await OIDCFuzzWorld.shared.runAsync { world in
                await FuzzVerdict.oidc { () async throws(OIDCError) in
                    _ = try await world.verifier.verify(
                        String(decoding: input, as: UTF8.self), expecting: world.authentication)
                }
            }
        },
        seeds: {
            var seeds: [String: [UInt8]] = [:]
            for fixture in try FuzzFixtures.cases("oidc/cases") {
                for member in ["token", "previous_token"] {
                    if let token = fixture.string(member) { seeds["\(member)-\(fixture.name)"] = Array(token.utf8) }
                }
            }
            return seeds
        })
}
