import HTTPTypes
import Testing

@testable import SSOKitExtension

@Suite struct BearerChallengeTests {
    func challenge(_ values: String...) -> BearerChallenge? {
        var fields = HTTPFields()
        for value in values { fields.append(HTTPField(name: .wwwAuthenticate, value: value)) }
        return BearerChallenge(fields)
    }

    @Test func bearerIsFoundAmongChallenges() {
        #expect(challenge("Bearer") != nil)
        #expect(challenge(#"bearer realm="api""#) != nil)
        #expect(challenge(#"Negotiate, Bearer realm="api", error="invalid_token""#)?.tokenRejected == true)
        #expect(challenge("Basic realm=x", "Bearer")?.tokenRejected == false)
    }

    @Test func otherSchemesAndLookalikesAreNotBearer() {
        #expect(challenge() == nil)
        #expect(challenge("Negotiate") == nil)
        #expect(challenge(#"Basic realm="Bearer""#) == nil)
        #expect(challenge(#"Basic bearer=1"#) == nil)
        #expect(challenge("BearerX") == nil)
    }
}
