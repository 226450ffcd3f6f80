import Foundation
import SSOKitProxy

#if canImport(Glibc)
    import Glibc
#endif

/// The local certificate authority of a server's intercepting proxy, kept in a data folder: `proxy-ca.json`, the
/// authority's archive with its private key sealed by the host's sealer (mode 0600), and `proxy-ca.pem`, its
/// certificate for the user to trust.
///
/// The authority is created on first use with name constraints for the hosts it must serve (the profile's https
/// Redirect hosts), so that it can sign for no other site. An authority that does not permit a host now needed, or
/// that expires within ``renewalMargin``, is replaced by a new one, which the user must trust again (``created``
/// says so). One whose key does not unseal is an error: it is never overwritten silently.
public struct CertificateAuthorityFile: Sendable {
    /// The archive's file name in the data folder.
    public static let archiveName = "proxy-ca.json"
    /// The certificate's file name in the data folder.
    public static let certificateName = "proxy-ca.pem"
    /// How long before its end an authority is replaced: 30 days.
    public static let renewalMargin: TimeInterval = 30 * 86_400

    /// The authority.
    public let authority: LocalCertificateAuthority
    /// The path of its certificate (PEM), for the user to trust.
    public let certificatePath: String
    /// Whether it was created now, so that the user must trust it (again).
    public let created: Bool

    /// The authority in `folder` that permits every one of `hosts`, created (or replaced) when there is none;
    /// its key sealed with `sealer`.
    ///
    /// - Throws: ``ServeError/Code-swift.struct/certificateAuthorityUnavailable`` when the folder or the files
    ///   cannot be written, the archive cannot be read or its key does not unseal, or a host is not a valid name.
    public static func loadOrCreate(
        in folder: URL, hosts: [String], sealer: some CertificateAuthorityKeySealer, now: Date = Date()
    ) throws(ServeError) -> CertificateAuthorityFile {
        let archivePath = folder.appendingPathComponent(archiveName).path
        let certificatePath = folder.appendingPathComponent(certificateName).path
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw ServeError(.certificateAuthorityUnavailable, "cannot create the folder \(folder.path)")
        }
        if let existing = try readArchive(archivePath, sealer: sealer),
            hosts.allSatisfy({ existing.permits(host: $0) }),
            existing.notValidAfter.timeIntervalSince(now) > renewalMargin
        {
            try writePEM(existing, to: certificatePath)
            return CertificateAuthorityFile(authority: existing, certificatePath: certificatePath, created: false)
        }
        let authority: LocalCertificateAuthority
        let archive: [UInt8]
        do {
            authority = try LocalCertificateAuthority.create(permittedHosts: hosts, now: now)
            archive = try authority.archive(sealingKeyWith: sealer)
        } catch {
            throw ServeError(.certificateAuthorityUnavailable, "the certificate authority could not be created")
        }
        try store(archive, at: archivePath, mode: 0o600)
        try writePEM(authority, to: certificatePath)
        return CertificateAuthorityFile(authority: authority, certificatePath: certificatePath, created: true)
    }

    /// The archived authority at `path`, nil when there is no file.
    private static func readArchive(
        _ path: String, sealer: some CertificateAuthorityKeySealer
    ) throws(ServeError) -> LocalCertificateAuthority? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let handle = FileHandle(forReadingAtPath: path),
            let data = try? handle.read(upToCount: LocalCertificateAuthority.maxArchiveBytes + 1)
        else { throw ServeError(.certificateAuthorityUnavailable, "cannot read \(path)") }
        try? handle.close()
        do {
            return try LocalCertificateAuthority(archive: Array(data), unsealingKeyWith: sealer)
        } catch {
            throw ServeError(
                .certificateAuthorityUnavailable,
                "\(path) is unusable (\(error.code)); remove it and its .pem to create a new authority")
        }
    }

    private static func writePEM(_ authority: LocalCertificateAuthority, to path: String) throws(ServeError) {
        let pem: String
        do {
            pem = try authority.certificatePEM
        } catch {
            throw ServeError(.certificateAuthorityUnavailable, "the authority's certificate could not be encoded")
        }
        if let current = FileManager.default.contents(atPath: path), current == Data(pem.utf8) { return }
        try store(Array(pem.utf8), at: path, mode: 0o644)
    }

    /// Writes `bytes` to `path` through a new file created with `mode` (never a looser one), fsynced, then renamed.
    private static func store(_ bytes: [UInt8], at path: String, mode: mode_t) throws(ServeError) {
        let temporary = path + ".\(getpid()).tmp"
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw ServeError(.certificateAuthorityUnavailable, "cannot create \(path)") }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        let closed = close(descriptor) == 0
        guard written == bytes.count, synced, closed, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw ServeError(.certificateAuthorityUnavailable, "cannot write \(path)")
        }
    }
}
