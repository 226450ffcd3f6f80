import Foundation

/// `peer/saml_idp.py` for one test, with the SP metadata from `ssokit saml metadata` and the IdP metadata it serves,
/// in a temporary directory that ``stop()`` removes.
final class SAMLPeer {
    let directory: URL
    let baseURL: String
    let entityID: String
    let idpMetadata: URL
    private let logFile: URL
    private let process: PeerProcess

    /// Starts the peer; `extraArguments` go to `saml_idp.py` (`--login-password`, ...).
    init(extraArguments: [String] = []) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ssokit-saml-e2e-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var started: PeerProcess?
        do {
            let spMetadata = try await ProcessRunner.run(
                MockProvider.ssokit,
                [
                    "saml", "metadata", "--sp-entity-id", SAMLPeerInteropTests.spEntityID, "--acs-url",
                    SAMLPeerInteropTests.acsURL, "--sign-cert", SAMLPeerInteropTests.key("sp.crt"), "--encrypt-cert",
                    SAMLPeerInteropTests.key("sp.crt"),
                ], timeout: 60)
            guard spMetadata.status == 0, spMetadata.stdout.contains("EntityDescriptor") else {
                throw PeerProcess.PeerError(message: "ssokit saml metadata failed: \(spMetadata.stdout)")
            }
            let spMetadataFile = directory.appendingPathComponent("sp-metadata.xml")
            try Data(spMetadata.stdout.utf8).write(to: spMetadataFile)

            let logFile = directory.appendingPathComponent("saml_idp.log")
            let process = try await PeerProcess(
                script: "saml_idp.py",
                arguments: [
                    "--sp-metadata", spMetadataFile.path, "--port", "0", "--max-seconds", "300", "--log-file",
                    logFile.path,
                ] + extraArguments)
            started = process
            guard let port = Int(process.firstLine), (1...65535).contains(port) else {
                throw PeerProcess.PeerError(message: "saml_idp.py did not print its port (got: \(process.firstLine))")
            }
            baseURL = "http://127.0.0.1:\(port)"
            entityID = "\(baseURL)/idp/metadata"

            let metadata = try await LoopbackHTTP.get(entityID)
            guard metadata.status == 200, metadata.text.contains("entityID=\"\(entityID)\"") else {
                throw PeerProcess.PeerError(message: "GET \(entityID): \(metadata.status) \(metadata.text.prefix(300))")
            }
            idpMetadata = directory.appendingPathComponent("idp-metadata.xml")
            try metadata.body.write(to: idpMetadata)
            self.directory = directory
            self.logFile = logFile
            self.process = process
        } catch {
            started?.stop()
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// The peer's log (why it refused a request), for failure messages.
    func log() -> String {
        (try? String(contentsOf: logFile, encoding: .utf8)).map { "\npeer log:\n\($0.suffix(2000))" } ?? ""
    }

    func stop() {
        process.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
