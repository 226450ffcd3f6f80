import Foundation
import SSOKitCore

/// An IdP's login form, as ``LoginFormParser`` found it: where it posts, the hidden values it carries, the fields
/// the user fills in, and the submit button a browser would press.
struct LoginForm: Sendable, Hashable, Codable {
    /// The absolute URL the form posts to.
    var action: URL
    /// Hidden inputs (and checked boxes), submitted as they are.
    var hidden: [NamedValue]
    /// The text and password inputs the user fills in, in document order.
    var fields: [CredentialField]
    /// The first submit button, when it has a name: a browser sends its name and value.
    var submit: NamedValue?

    /// One name and value.
    struct NamedValue: Sendable, Hashable, Codable {
        var name: String
        var value: String
    }

    /// The form body for `credentials`: every field by name, else `username` for the first text input and
    /// `password` for the first password input. `missing_credentials` when the first text or password input gets
    /// no value.
    func body(credentials: [String: String]) throws(AuthorizationFailure) -> [UInt8] {
        var pairs = hidden.map { ($0.name, $0.value) }
        let firstText = fields.first { !$0.isSecret }?.name
        let firstSecret = fields.first { $0.isSecret }?.name
        for field in fields {
            let alias = field.isSecret ? "password" : "username"
            let isFirst = field.name == (field.isSecret ? firstSecret : firstText)
            let value = credentials[field.name] ?? (isFirst ? credentials[alias] : nil)
            guard let value else {
                if isFirst {
                    throw AuthorizationFailure(
                        .failed, .missingCredentials, "the login form's \(field.name) field was not supplied")
                }
                pairs.append((field.name, ""))
                continue
            }
            pairs.append((field.name, value))
        }
        if let submit { pairs.append((submit.name, submit.value)) }
        return Array(FormURLEncoding.encode(pairs).utf8)
    }
}
