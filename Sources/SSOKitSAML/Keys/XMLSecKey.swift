internal import CXMLSec
import Foundation

/// Owns one xmlsec key. The key is never mutated after creation; every use duplicates it (xmlsec contexts take
/// ownership of their key), so one instance may be shared by any number of concurrent verifications.
final class XMLSecKey: @unchecked Sendable {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) { self.pointer = pointer }

    deinit { ssokit_key_free(pointer) }

    /// The key algorithm family.
    enum Family { case rsa, ec, other }

    var family: Family {
        switch ssokit_key_type(pointer) {
        case 1: .rsa
        case 2: .ec
        default: .other
        }
    }
}
