import Crypto
import Foundation
import JWTKit
import SSOKitCore
import SSOKitExtension
import SSOKitOIDC
import SSOKitStore
import SSOKitTokenCache
import Testing

@testable import SSOKitRights

@Suite("Challenge signatures")
struct ChallengeSigningTests {
    @Test("a challenge whose bytes are a client assertion's signing input yields no valid assertion")
    func challengeIsNotAnAssertion() async throws {
        let store = try RightStore(records: InMemoryTokenCacheStore(), deviceKey: SymmetricKey(size: .bits256))
        let right = try Right(
            requirement: .custom(CustomRequirement(name: "ok") { _ in true }), authenticator: ScriptedAuthenticator([]))
        let persisted = try await store.persist(right, identifier: "client-key")
        try await persisted.authorize(localizedReason: "t")
        let signer = RightClientAssertionSigner(right: persisted)
        let now = Date()
        let claims = ClientAssertionClaims(
            clientID: "client-1", audience: "https://idp.example/token", issuedAt: now,
            expiresAt: now.addingTimeInterval(60), jwtID: "attacker-chosen")
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: try ES256PublicKey(pem: persisted.publicKey.pemRepresentation))

        // The genuine assertion verifies; its signing input, posed as a challenge, yields a signature that does not.
        let genuine = try await signer.sign(claims)
        _ = try await keys.verify(genuine, as: JWTKitClientAssertion.self)
        let signatureStart = try #require(genuine.lastIndex(of: "."))
        let signingInput = String(genuine[..<signatureStart])
        let answer = try persisted.privateKey.challengeSignature(for: Array(signingInput.utf8))
        let forged = signingInput + "." + Base64URL.encode(answer)
        await #expect(throws: (any Error).self) { try await keys.verify(forged, as: JWTKitClientAssertion.self) }
        let verifying = try P256.Signing.PublicKey(derRepresentation: persisted.publicKey.derRepresentation)
        let parsed = try P256.Signing.ECDSASignature(rawRepresentation: answer)
        #expect(!verifying.isValidSignature(parsed, for: Array(signingInput.utf8)))
        // It is a valid answer to that challenge, under the context.
        #expect(persisted.publicKey.isValidChallengeSignature(answer, for: Array(signingInput.utf8)))
        #expect(verifying.isValidSignature(parsed, for: RightChallenge.signedMessage(for: Array(signingInput.utf8))))
    }

    @Test("the context holds a byte that no JWS signing input can hold, so no challenge's message is one")
    func contextIsOutsideTheJWSAlphabet() {
        let jwsAlphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.".utf8)
        #expect(RightChallenge.context.contains { !jwsAlphabet.contains($0) })
        #expect(RightChallenge.context == Array("ssokit-right-challenge-v1".utf8) + [0])
        #expect(RightChallenge.signedMessage(for: [1, 2]) == RightChallenge.context + [1, 2])
    }
}
