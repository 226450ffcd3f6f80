/// What a persisted right's key signs when it answers a server challenge: ``context`` followed by the challenge,
/// never the challenge alone.
///
/// The same key signs `private_key_jwt` client assertions (`RightClientAssertionSigner`, in SSOKitExtension). A JWS
/// signing input holds only base64url characters and `.`, while ``context`` holds a NUL byte, so no challenge,
/// whatever its bytes, makes the key sign a client assertion or any other JWS: challenge signatures and assertion
/// signatures are kept apart (domain separation). A server verifies an answer with the exported public key over ``signedMessage(for:)``.
public enum RightChallenge {
    /// The ASCII text `ssokit-right-challenge-v1` followed by one NUL byte (26 bytes).
    public static let context: [UInt8] = Array("ssokit-right-challenge-v1".utf8) + [0]

    /// The bytes that an answer to `challenge` signs (ECDSA P-256 with SHA-256): ``context`` ‖ `challenge`.
    public static func signedMessage(for challenge: [UInt8]) -> [UInt8] { context + challenge }
}
