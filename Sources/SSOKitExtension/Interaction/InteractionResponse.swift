import Foundation
import SSOKitCore
import SSOKitOIDC

/// The host's answer to an ``Interaction``.
public enum InteractionResponse: Sendable {
    /// Values for the login form's fields, by name. `username` and `password` fill the form's first text and
    /// first password inputs when the form names them otherwise.
    case credentials([String: String])
    /// The URL the IdP redirected the browser to (the redirect URI with `code` and `state`).
    case callbackURL(URL)
    /// The user gave up.
    case cancel

    /// Reads the body of `POST /v1/interactions/ID`: `{"callback_url": "..."}`, `{"cancel": true}`, or string
    /// members that are the form's fields (`{"username": "...", "password": "..."}`).
    public init(json: some Collection<UInt8>) throws(AuthorizationInputError) {
        guard json.count <= 16 * 1024 else {
            throw AuthorizationInputError(.tooLarge, "the interaction answer is larger than 16 KiB")
        }
        guard let value = try? JSONParser(maximumDepth: 2).parse(json), let object = value.objectValue else {
            throw AuthorizationInputError(.invalidJSON, "the interaction answer is not one JSON object")
        }
        let members = JSONMembers(object)
        if try members.bool("cancel") == true {
            self = .cancel
            return
        }
        if let text = try members.string("callback_url") {
            guard let url = URL(string: text), url.scheme != nil, text.utf8.count <= 8192 else {
                throw AuthorizationInputError(.invalidField, "callback_url must be an absolute URL")
            }
            self = .callbackURL(url)
            return
        }
        guard object.count <= 32 else { throw AuthorizationInputError(.tooLarge, "too many fields") }
        var fields: [String: String] = [:]
        for name in object.keys {
            guard let value = try members.string(name) else {
                throw AuthorizationInputError(.invalidField, "\(name) must be a string")
            }
            fields[name] = value
        }
        self = .credentials(fields)
    }
}
