import SSOKitConformance
import SSOKitCore
import SSOKitOIDC

/// The relying party the OIDC fixtures describe (fixtures/oidc/README.md): issuer `https://idp.example.com`, client
/// `ssokit-client`, the keys of `jwks/main.json` and `jwks/rotated.json`, the clock at 2026-01-01T00:00:00Z.
struct OIDCFuzzWorld: Sendable {
    let verifier: IDTokenVerifier
    /// What an authentication expects: the fixtures' nonce, a max_age, an access token and a code (so `at_hash`
    /// and `c_hash` are checked when present).
    let authentication: IDTokenExpectations
    /// What a refresh expects: the claims of the fixtures' original token (OIDC Core §12.2).
    let refresh: IDTokenExpectations

    static let shared = FuzzSetup { try OIDCFuzzWorld() }

    init() throws {
        var keys: [VerificationKey] = []
        for file in ["oidc/jwks/main.json", "oidc/jwks/rotated.json"] {
            keys += try JSONWebKeySet(jsonBytes: FuzzFixtures.bytes(file)).keys
        }
        verifier = IDTokenVerifier(
            configuration: .init(issuer: "https://idp.example.com", clientID: "ssokit-client"),
            keys: StaticKeySource(JSONWebKeySet(keys: keys)), clock: FixedClock(FuzzFixtures.now))
        authentication = IDTokenExpectations(
            nonce: "n-0S6_WzA2Mj", maxAge: 300, accessToken: "jHkWEdUXMU1BwAsC4vtUsZwnNvTIxEl0z9K3vx5KF0Y",
            authorizationCode: "Qcb0Orv1zh30vL1MPRsbm-diHiMwcLyZvn1arpZv-Jxf_11jnpEX3Tgfvk")
        let refreshCase = try FuzzFixtures.cases("oidc/cases").first { $0.name == "id-token-refresh-valid.json" }
        let previousPayload = IDTokenSegments(refreshCase?.string("previous_token") ?? "").jsonSegments.last ?? []
        guard let claims = try JSONParser().parse(previousPayload).objectValue else {
            throw FuzzFixtures.SetupFailure(description: "the refresh case's previous token has no claims")
        }
        refresh = IDTokenExpectations(previousClaims: try IDTokenClaims(claims))
    }
}
