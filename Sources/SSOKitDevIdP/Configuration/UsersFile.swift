import Foundation
import SSOKitCore
import SSOKitOIDC

extension DevIdPUser {
    /// Reads users from a JSON file:
    ///
    /// ```json
    /// {"users": [{"username": "alice", "password": "…", "subject": "optional stable id",
    ///             "claims": {"name": "Alice", "email": "alice@example.com", "groups": ["staff"]}}]}
    /// ```
    ///
    /// Passwords are hashed as they are read (salted scrypt) and not kept in memory in the clear. The file itself
    /// is the developer's; keep it private.
    public static func load(from file: URL) throws(DevIdPError) -> [DevIdPUser] {
        let document = try JSONDocument(contentsOf: file)
        var users: [DevIdPUser] = []
        for entry in try document.objects("users") {
            guard let username = try entry.string("username", in: document, required: true),
                let password = try entry.string("password", in: document, required: true)
            else { throw document.invalid("a user lacks a username or password") }
            var claims: [String: JSONValue] = [:]
            if let value = entry["claims"] {
                guard let object = value.objectValue else { throw document.invalid("the claims of \(username)") }
                claims = object
            }
            users.append(
                try DevIdPUser(
                    username: username, password: password, subject: entry.string("subject", in: document),
                    claims: claims))
        }
        guard !users.isEmpty else { throw document.invalid("the file lists no users") }
        return users
    }
}
