import Crypto
import SSOKitCore

/// A PKCE verifier and its challenge (RFC 7636).
public struct PKCE: Sendable, Hashable {
    /// How the challenge is derived from the verifier.
    public struct Method: Sendable, Hashable, CustomStringConvertible {
        /// The `code_challenge_method` name.
        public let name: String
        private init(_ name: String) { self.name = name }
        /// `BASE64URL(SHA256(verifier))`, the default and the only one to use unless the provider lacks it.
        public static let s256 = Method("S256")
        /// The challenge is the verifier itself (RFC 7636 §4.2); only on explicit request.
        public static let plain = Method("plain")
        /// The name.
        public var description: String { name }
    }

    /// The secret `code_verifier`, sent only to the token endpoint.
    public let verifier: String
    /// The `code_challenge` sent in the authorization request.
    public let challenge: String
    /// The `code_challenge_method`.
    public let method: Method

    /// Creates a fresh verifier of 64 characters (384 bits from the system CSPRNG) and its S256 challenge.
    public init() {
        self.init(method: .s256)
    }

    /// Creates a fresh verifier with an explicitly chosen method.
    public init(method: Method) {
        // 48 random bytes are 64 base64url characters, all in the unreserved set.
        let verifier = RandomToken.make(byteCount: 48)
        self.verifier = verifier
        self.method = method
        self.challenge = Self.challenge(for: verifier, method: method)
    }

    /// Wraps an existing verifier; `invalid_code_verifier` unless it is 43–128 unreserved characters
    /// (`A-Z a-z 0-9 - . _ ~`, RFC 7636 §4.1).
    public init(verifier: String, method: Method = .s256) throws(OIDCError) {
        guard Self.isWellFormed(verifier) else {
            throw OIDCError(.invalidCodeVerifier, "a code_verifier is 43 to 128 unreserved characters")
        }
        self.verifier = verifier
        self.method = method
        self.challenge = Self.challenge(for: verifier, method: method)
    }

    /// The challenge for `verifier` under `method`.
    public static func challenge(for verifier: String, method: Method) -> String {
        method == .plain ? verifier : Base64URL.encode(SHA256.hash(data: Array(verifier.utf8)))
    }

    /// Checks that `verifier` is well formed and produces `challenge` (constant-time); the server-side check.
    public static func validate(verifier: String, challenge: String, method: Method) throws(OIDCError) {
        guard isWellFormed(verifier),
            ConstantTime.equals(Self.challenge(for: verifier, method: method), challenge)
        else {
            throw OIDCError(.invalidCodeVerifier, "the code_verifier does not match the code_challenge")
        }
    }

    static func isWellFormed(_ verifier: String) -> Bool {
        let bytes = verifier.utf8
        guard (43...128).contains(bytes.count) else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                true
            default: false
            }
        }
    }
}
