/// Which signatures a Response must carry to be accepted.
public enum SAMLSignaturePolicy: String, Sendable, Hashable, CaseIterable {
    /// The assertion must be covered by a valid signature: its own, or the Response's (the default).
    case assertionCovered = "assertion_covered"
    /// The Response element must carry a valid signature.
    case response
    /// The Assertion element must carry its own valid signature.
    case assertion
    /// Both the Response and the Assertion must carry valid signatures.
    case both
}
