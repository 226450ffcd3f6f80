import Crypto
import CryptoExtras
import Foundation
import HTTPTypes
import SSOKitConformance
import SSOKitCore
import SSOKitOIDC
import Synchronization

/// Shared values for the OIDC tests.
enum TestIdP {
    static let issuer = "https://idp.example.com"
    static let clientID = "ssokit-client"
    /// 2026-01-01T00:00:00Z.
    static let now: Int64 = 1_767_225_600
    static let discoveryURL = "https://idp.example.com/.well-known/openid-configuration"
    static let jwksURL = "https://idp.example.com/jwks"
    static let authorizationURL = "https://idp.example.com/authorize"
    static let tokenURL = "https://idp.example.com/token"
    static let revocationURL = "https://idp.example.com/revoke"
    static let userInfoURL = "https://idp.example.com/userinfo"
    static let deviceURL = "https://idp.example.com/device"
    static let redirectURI = "http://127.0.0.1:8765/callback"

    private static let rsaResult = Result { try TestTokenSigner.rsa(keyID: "rsa-1") }
    private static let rsa2Result = Result { try TestTokenSigner.rsa(keyID: "rsa-2") }

    /// One RSA-2048 key for the whole run (generating RSA keys is slow).
    static func rsa() throws -> TestTokenSigner { try rsaResult.get() }
    /// A second RSA-2048 key, for "wrong key" and rotation cases.
    static func rsa2() throws -> TestTokenSigner { try rsa2Result.get() }

    /// A discovery document for ``issuer``; `extra` members (raw JSON values) are added or replace defaults.
    static func discoveryDocument(issuer: String = issuer, extra: [String: String] = [:]) -> String {
        var members: [String: String] = [
            "issuer": quoted(issuer),
            "authorization_endpoint": quoted(authorizationURL),
            "token_endpoint": quoted(tokenURL),
            "jwks_uri": quoted(jwksURL),
            "userinfo_endpoint": quoted(userInfoURL),
            "revocation_endpoint": quoted(revocationURL),
            "device_authorization_endpoint": quoted(deviceURL),
            "response_types_supported": #"["code"]"#,
            "subject_types_supported": #"["public"]"#,
            "id_token_signing_alg_values_supported": #"["RS256","ES256","EdDSA"]"#,
            "code_challenge_methods_supported": #"["S256"]"#,
        ]
        for (name, value) in extra { members[name] = value }
        return "{" + members.sorted { $0.key < $1.key }.map { "\(quoted($0.key)):\($0.value)" }.joined(separator: ",")
            + "}"
    }

    static let subject = "248289761001"
    static let nonce = "n-0S6_WzA2Mj"

    /// Standard valid ID-token claims at `now` as JSON text; each change replaces a member with the given raw JSON
    /// value, or removes it when the value is `nil`.
    static func claims(now: Int64 = TestIdP.now, _ changes: [String: String?] = [:]) -> String {
        var members: [String: String] = [
            "iss": quoted(issuer), "sub": quoted(subject), "aud": quoted(clientID), "exp": "\(now + 3600)",
            "iat": "\(now - 10)", "auth_time": "\(now - 30)", "nonce": quoted(nonce),
        ]
        for (name, value) in changes { members[name] = value }
        return "{" + members.sorted { $0.key < $1.key }.map { "\(quoted($0.key)):\($0.value)" }.joined(separator: ",")
            + "}"
    }

    /// A JSON string literal (the test values need no escaping beyond quotes and backslashes).
    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

/// A clock the test moves by hand.
final class MutableClock: SSOKitClock {
    private let state: Mutex<(now: Date, reads: Int)>

    init(unixSeconds: Int64 = TestIdP.now) {
        state = Mutex((Date(timeIntervalSince1970: TimeInterval(unixSeconds)), 0))
    }

    var now: Date {
        state.withLock { state in
            state.reads += 1
            return state.now
        }
    }

    /// How many times `now` was read.
    var reads: Int { state.withLock { $0.reads } }

    /// The current time in whole Unix seconds, without counting as a read.
    var unixSeconds: Int64 { state.withLock { Int64($0.now.timeIntervalSince1970) } }

    func advance(by seconds: TimeInterval) {
        state.withLock { $0.now.addTimeInterval(seconds) }
    }
}

/// A one-shot gate: `wait()` suspends until `open()` is called (or returns at once after it).
final class Gate: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// A value the test and a transport handler share.
final class Shared<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>

    init(_ value: Value) { storage = Mutex(value) }

    var value: Value {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }

    @discardableResult
    func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        storage.withLock { body(&$0) }
    }
}

extension HTTPTransportResponse {
    /// A response with an arbitrary body and content type.
    static func text(_ text: String, status: HTTPResponse.Status, contentType: String = "text/html")
        -> HTTPTransportResponse
    {
        var response = HTTPResponse(status: status)
        response.headerFields[.contentType] = contentType
        return HTTPTransportResponse(response: response, body: Array(text.utf8))
    }
}

extension InMemoryHTTPTransport.RecordedRequest {
    /// The request's query, decoded as form parameters.
    var queryParameters: [String: String] {
        guard let path = request.path, let query = path.split(separator: "?", maxSplits: 1).dropFirst().first,
            let pairs = FormURLEncoding.decode(query)
        else { return [:] }
        return Dictionary(pairs, uniquingKeysWith: { first, _ in first })
    }

    /// The body as text.
    var bodyText: String { body.map { String(decoding: $0, as: UTF8.self) } ?? "" }
}

/// Signs a token by hand with `signer`'s key, with any header (for headers `TestTokenSigner` cannot write,
/// such as one without `kid`).
func signRaw(header: String, claims: String, with signer: TestTokenSigner) throws -> String {
    let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
    let data = Array(input.utf8)
    let signature: [UInt8]
    switch signer.key {
    case .rsa(let key):
        signature = Array(
            try key.signature(for: SHA256.hash(data: data), padding: .insecurePKCS1v1_5).rawRepresentation)
    case .p256(let key):
        signature = Array(try key.signature(for: data).rawRepresentation)
    case .ed25519(let key):
        signature = Array(try key.signature(for: data))
    }
    return input + "." + Base64URL.encode(signature)
}
