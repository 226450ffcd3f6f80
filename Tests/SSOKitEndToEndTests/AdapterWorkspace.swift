import Foundation

/// A profile for the peers and `ssokit authorize` runs against it, all sharing one cache folder (so one run can
/// resume what another left pending).
struct AdapterWorkspace {
    let workspace: CLIWorkspace
    let profile: String

    /// Writes `{"PayloadContent": [payloads]}` (payloads as JSON text) to the workspace.
    init(payloads: [String]) throws {
        workspace = try CLIWorkspace()
        _ = try workspace.file("client-secret.txt", CLIWorkspace.secret + "\n")
        profile = try workspace.file("profile.json", #"{"PayloadContent": ["# + payloads.joined(separator: ",") + "]}")
    }

    /// `ssokit authorize --profile … --cache … ARGUMENTS`; `password` goes to standard input (`--password-stdin`).
    func authorize(_ arguments: [String], password: String? = nil) async throws -> ProcessResult {
        try await workspace.ssokit(
            ["authorize", "--profile", profile, "--cache", workspace.cache.path] + arguments,
            input: password.map { Data(($0 + "\n").utf8) })
    }

    /// An OIDC payload for the mock provider at `issuer` (client `ssokit-e2e`, its secret from a file).
    static func oidcPayload(
        _ identifier: String, issuer: String, type: String = "Redirect", routes: String, extra: String = ""
    ) -> String {
        """
        {"PayloadType": "com.apple.extensiblesso", "PayloadIdentifier": "\(identifier)",
         "ExtensionIdentifier": "com.example.ssokit.extension", "TeamIdentifier": "ABCDE12345", "Type": "\(type)",
         \(routes), "ExtensionData": {"protocol": "oidc", "issuer": "\(issuer)", "client_id": "\(CLIWorkspace.client)",
         "client_secret_file": "client-secret.txt", "scopes": "openid email",
         "redirect_uri": "http://127.0.0.1:8765/callback"\(extra)}}
        """
    }

    func cleanUp() { workspace.cleanUp() }
}

extension ProcessResult {
    /// The `result` member of `ssokit authorize`'s object.
    var result: String? { json?["result"] as? String }
    /// The `error` object's `reason`.
    var reason: String? { (json?["error"] as? [String: Any])?["reason"] as? String }
    /// The `headers` object.
    var headers: [String: String] { json?["headers"] as? [String: String] ?? [:] }
    /// The `body`, parsed as a JSON object.
    var bodyObject: [String: Any]? {
        (json?["body"] as? String).flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }
    /// The `interaction` object.
    var interaction: [String: Any]? { json?["interaction"] as? [String: Any] }
}
