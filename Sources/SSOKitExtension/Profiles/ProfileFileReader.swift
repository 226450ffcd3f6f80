/// How the host reads the files a profile names (`client_secret_file`, `idp_certificate`, `idp_metadata_file`,
/// `sp_key_file`, `sp_cert_file`). SSOKitExtension never touches files itself: the CLI or the embedding service
/// implements this, and a file it cannot read becomes a problem naming the payload and the key.
public protocol ProfileFileReader: Sendable {
    /// The bytes of the file at `path` (already resolved against the profile's folder); throws when the file is
    /// missing, unreadable or larger than `maximumBytes`.
    func contents(ofFile path: String, maximumBytes: Int) throws -> [UInt8]
}

/// Resolving a path written in a profile against the profile's folder, as values: nothing is looked up.
enum ProfilePath {
    /// `path` itself when absolute or when there is no folder, else `directory/path`.
    static func resolve(_ path: String, against directory: String?) -> String {
        guard let directory, !directory.isEmpty, !path.hasPrefix("/") else { return path }
        return directory.hasSuffix("/") ? directory + path : directory + "/" + path
    }
}
