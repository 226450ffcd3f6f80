// A service verifying the ID token a client presents: keys from the provider's JWKS (cached, rotated on unknown
// kid), every OIDC Core §3.1.3.7 rule checked, typed errors with stable codes.
//
//     swift run VerifyIDTokenExample <issuer> <client-id> <id-token>
import Foundation
import SSOKitCore
import SSOKitOIDC

let arguments = CommandLine.arguments
guard arguments.count == 4 else {
    FileHandle.standardError.write(Data("usage: VerifyIDTokenExample ISSUER CLIENT_ID ID_TOKEN\n".utf8))
    exit(64)
}
let (issuer, clientID, token) = (arguments[1], arguments[2], arguments[3])

let transport = AsyncHTTPClientTransport()
do {
    let metadata = try await DiscoveryClient(transport: transport).metadata(for: issuer)
    let verifier = IDTokenVerifier(
        configuration: .init(issuer: issuer, clientID: clientID),
        keys: try JWKSCache(url: metadata.jwksURI, transport: transport))
    let claims = try await verifier.verify(token)
    print("verified: sub=\(claims.subject), expires \(claims.expiresAt.date)")
} catch {
    // error.code is stable (e.g. token_expired, audience_mismatch); error.reason never holds the token.
    print("rejected: \(error.code): \(error.reason)")
}
try await transport.shutdown()
