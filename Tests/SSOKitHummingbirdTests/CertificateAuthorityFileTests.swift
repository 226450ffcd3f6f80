import Crypto
import Foundation
import SSOKitHummingbird
import SSOKitProxy
import Testing

/// The proxy's local certificate authority in a data folder: created once with its key sealed, kept while it
/// serves the hosts, replaced when it cannot, and never overwritten when its key does not unseal.
@Suite struct CertificateAuthorityFileTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ca-file-\(UUID().uuidString)")
    let sealer: SymmetricKeyCertificateAuthoritySealer

    init() throws {
        sealer = try SymmetricKeyCertificateAuthoritySealer(key: SymmetricKey(size: .bits256))
    }

    func mode(_ name: String) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)[.posixPermissions]
            as? Int
    }

    @Test func createdOnceThenKept() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try CertificateAuthorityFile.loadOrCreate(in: folder, hosts: ["idp.example.test"], sealer: sealer)
        #expect(first.created)
        #expect(first.authority.permittedHosts == ["idp.example.test"])
        #expect(try mode(CertificateAuthorityFile.archiveName) == 0o600)
        #expect(try mode(CertificateAuthorityFile.certificateName) == 0o644)
        let archive = try String(
            contentsOf: folder.appendingPathComponent(CertificateAuthorityFile.archiveName), encoding: .utf8)
        #expect(!archive.contains("PRIVATE KEY"))
        #expect(try String(contentsOfFile: first.certificatePath, encoding: .utf8) == first.authority.certificatePEM)

        let second = try CertificateAuthorityFile.loadOrCreate(
            in: folder, hosts: ["login.idp.example.test"], sealer: sealer)
        #expect(!second.created)
        #expect(second.authority.fingerprint == first.authority.fingerprint)
    }

    @Test func replacedForAHostItMayNotSignForOrNearItsEnd() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try CertificateAuthorityFile.loadOrCreate(in: folder, hosts: ["idp.example.test"], sealer: sealer)
        let widened = try CertificateAuthorityFile.loadOrCreate(
            in: folder, hosts: ["idp.example.test", "other.example.test"], sealer: sealer)
        #expect(widened.created && widened.authority.fingerprint != first.authority.fingerprint)
        #expect(widened.authority.permits(host: "other.example.test"))
        let late = Date().addingTimeInterval(340 * 86_400)
        let renewed = try CertificateAuthorityFile.loadOrCreate(
            in: folder, hosts: ["idp.example.test"], sealer: sealer, now: late)
        #expect(renewed.created && renewed.authority.notValidAfter > late.addingTimeInterval(300 * 86_400))
    }

    @Test func anArchiveThatDoesNotUnsealIsAnErrorAndStays() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try CertificateAuthorityFile.loadOrCreate(in: folder, hosts: ["idp.example.test"], sealer: sealer)
        let archive = folder.appendingPathComponent(CertificateAuthorityFile.archiveName)
        let before = try Data(contentsOf: archive)
        let other = try SymmetricKeyCertificateAuthoritySealer(key: SymmetricKey(size: .bits256))
        #expect(throws: ServeError(.certificateAuthorityUnavailable, "")) {
            try CertificateAuthorityFile.loadOrCreate(in: folder, hosts: ["idp.example.test"], sealer: other)
        }
        #expect(try Data(contentsOf: archive) == before)
        try Data("{not json".utf8).write(to: archive)
        #expect(throws: ServeError(.certificateAuthorityUnavailable, "")) {
            try CertificateAuthorityFile.loadOrCreate(in: folder, hosts: ["idp.example.test"], sealer: sealer)
        }
    }
}
