/// Whether a profile was signed, and what its signature proved.
public enum ProfileSignature: Sendable, Hashable {
    /// A plain property list or JSON file.
    case unsigned
    /// CMS SignedData whose signatures verify with the certificates it carries, read without trust anchors: the
    /// content is intact, but nothing says who signed it.
    case signedNotVerified
    /// CMS SignedData whose signer chains to a trust anchor the caller passed; the signer's subject (RFC 2253).
    case verified(signer: String)

    /// `unsigned`, `signed_not_verified` or `verified`.
    public var name: String {
        switch self {
        case .unsigned: "unsigned"
        case .signedNotVerified: "signed_not_verified"
        case .verified: "verified"
        }
    }
}
