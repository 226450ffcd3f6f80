import Foundation
import SSOKitConformance
import SSOKitCore
import SSOKitOIDC
import Testing

extension JWKSCacheTests {
    /// A cache and verifier over a JWKS endpoint that is down from the start.
    static func failingFromTheStart() throws -> (
        signer: TestTokenSigner, clock: MutableClock, endpoint: JWKSEndpoint, cache: JWKSCache,
        verifier: IDTokenVerifier
    ) {
        let signer = try TestIdP.rsa()
        let clock = MutableClock()
        let endpoint = JWKSEndpoint([signer])
        endpoint.failing.value = true
        let cache = try Self.cache(endpoint, clock: clock)
        return (signer, clock, endpoint, cache, Self.verifier(cache, clock: clock))
    }

    @Test("a failing first fetch is rate-limited too: tokens within the interval do not refetch")
    func failedFirstFetchIsRateLimited() async throws {
        let (signer, clock, endpoint, cache, verifier) = try Self.failingFromTheStart()

        // A burst of tokens while the endpoint is down: one fetch, then every token fails at once.
        for _ in 0..<5 {
            let error = await #expect(throws: OIDCError.self) {
                _ = try await verifier.verify(try Self.token(signer, clock: clock))
            }
            #expect(error?.code == .jwksFetchFailed)
            clock.advance(by: 5)
        }
        #expect(await cache.fetchCount == 1)
        #expect(endpoint.transport.requests.count == 1)
        #expect(await cache.refreshForUnknownKey() == nil)
        #expect(await cache.fetchCount == 1, "an unknown kid does not bypass the limit either")

        // Once the interval has passed the next token tries again, and succeeds when the endpoint is back.
        endpoint.failing.value = false
        clock.advance(by: 60)
        _ = try await verifier.verify(try Self.token(signer, clock: clock))
        #expect(await cache.fetchCount == 2)
        _ = try await verifier.verify(try Self.token(signer, clock: clock))
        #expect(await cache.fetchCount == 2)
    }

    @Test("an unreachable JWKS endpoint is asked at most once per interval however many tokens arrive at once")
    func concurrentFailuresShareTheLimit() async throws {
        let (signer, clock, _, cache, verifier) = try Self.failingFromTheStart()
        let token = try Self.token(signer, clock: clock)
        let codes = await withTaskGroup(of: String.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    do {
                        _ = try await verifier.verify(token)
                        return "valid"
                    } catch {
                        return (error as? OIDCError)?.code.description ?? "\(error)"
                    }
                }
            }
            var codes: [String] = []
            for await code in group { codes.append(code) }
            return codes
        }
        #expect(codes == Array(repeating: "jwks_fetch_failed", count: 20))
        #expect(await cache.fetchCount == 1)
    }
}
