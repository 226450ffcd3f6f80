import BenchmarkSupport
import CXMLSecReference
import Crypto
import CryptoExtras
import Foundation
import SSOKitConformance
import SSOKitCore
import SSOKitSAML

/// SAML Response verification with every check on, against plain C loops over xmlsec on the same document
/// (parse from memory, register the ID, xmlSecDSigCtxVerify with the pinned key in a fresh context), and signed
/// redirect-binding AuthnRequest generation against a raw RSA-2048 signature.
///
/// Run: `taskset -c 0 swift run -c release SAMLBenchmark [seconds-per-round] [case-name]`.
/// `--profile-ssokit` / `--profile-reference` run one side alone and print the call count (200 warm-up calls
/// included), for `perf stat -e instructions` (instructions per call do not depend on the machine's load).
@main
struct SAMLBenchmark {
    static func main() async throws {
        let arguments = CommandLine.arguments.dropFirst()
        let seconds = arguments.first.flatMap(Double.init) ?? 1.0
        let caseName = arguments.dropFirst().first ?? "benchmark-7kb-valid"
        try await Task.detached {
            try await run(caseName: caseName, seconds: seconds)
        }.value
    }

    static func run(caseName: String, seconds: Double) async throws {
        guard let root = FixtureLoader.fixturesDirectory() else { throw CocoaError(.fileNoSuchFile) }
        let folder = root.appendingPathComponent("saml")
        let fixture = try BenchmarkCase.load(folder.appendingPathComponent("cases/\(caseName).json"))
        let xml = Array(try Data(contentsOf: folder.appendingPathComponent(fixture.response)))
        let certificatePEM = try String(
            contentsOf: folder.appendingPathComponent(fixture.certificate), encoding: .utf8)
        let verifier = SAMLResponseVerifier(
            configuration: .init(
                serviceProviderEntityID: fixture.spEntityID, assertionConsumerServiceURL: fixture.acsURL,
                identityProviderEntityID: fixture.idpEntityID ?? "",
                identityProviderCertificates: [try SAMLCertificate(pem: certificatePEM)],
                insecureSkipIssuerCheck: fixture.idpEntityID == nil),
            clock: FixedClock(fixture.now))
        let solicitation = SAMLResponseVerifier.Solicitation.request(id: fixture.requestID)
        _ = try verifier.validate(xml: xml, solicitation: solicitation)
        let posted = Data(xml).base64EncodedString(options: .lineLength76Characters)

        print("SAML Response verification: \(caseName), \(xml.count) bytes (\(seconds) s per round, best of 3)")
        let certificateBytes = Array(certificatePEM.utf8)
        func loadReferenceKey(bare: Bool) throws {
            let status = certificateBytes.withUnsafeBufferPointer {
                ssokit_reference_load_key($0.baseAddress, $0.count, bare ? 1 : 0)
            }
            guard status == 0 else { throw CocoaError(.fileReadCorruptFile) }
        }
        func referenceVerify() throws {
            let result = xml.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) {
                    ssokit_reference_verify($0.baseAddress, Int32($0.count))
                }
            }
            guard result == 1 else { throw CocoaError(.fileReadCorruptFile) }
        }

        if CommandLine.arguments.contains("--profile-ssokit") {
            // Only SSOKit's verification, for a profiler.
            let statistics = try await measure(seconds: seconds) {
                _ = try verifier.validate(xml: xml, solicitation: solicitation)
            }
            print("operations: \(statistics.operations + 200)")
            return
        }
        if CommandLine.arguments.contains("--profile-reference") {
            try loadReferenceKey(bare: true)
            let statistics = try await measure(seconds: seconds) { try referenceVerify() }
            print("operations: \(statistics.operations + 200)")
            return
        }
        try loadReferenceKey(bare: false)
        let cLoopCertificate = try await best { try referenceVerify() }
        try loadReferenceKey(bare: true)
        let cLoopBare = try await best { try referenceVerify() }
        let ssokit = try await best { _ = try verifier.validate(xml: xml, solicitation: solicitation) }
        let ssokitPosted = try await best {
            _ = try verifier.validate(postedResponse: posted, solicitation: solicitation)
        }
        let parseOnly = try await best {
            let ok = xml.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { ssokit_reference_parse($0.baseAddress, Int32($0.count)) }
            }
            guard ok == 1 else { throw CocoaError(.fileReadCorruptFile) }
        }
        let rsaKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let message = Data(xml.prefix(1024))
        let rsaSignature = try rsaKey.signature(for: message, padding: .insecurePKCS1v1_5)
        let rsaVerify = try await best {
            guard rsaKey.publicKey.isValidSignature(rsaSignature, for: message, padding: .insecurePKCS1v1_5) else {
                throw CocoaError(.fileReadCorruptFile)
            }
        }

        func line(_ name: String, _ statistics: BenchmarkStatistics) {
            print("  \(name.padding(toLength: 44, withPad: " ", startingAt: 0)) \(statistics.summary)")
        }
        line("C loop, key from certificate", cLoopCertificate)
        line("C loop, bare public key (the reference)", cLoopBare)
        line("SSOKit validate(xml:), every check", ssokit)
        line("SSOKit validate(postedResponse:) (base64)", ssokitPosted)
        line("libxml2 parse alone", parseOnly)
        line("RSA-2048 verify alone (swift-crypto)", rsaVerify)
        let ratio = ssokit.opsPerSecond / cLoopBare.opsPerSecond
        print("  ratio SSOKit / bare-key C loop, best rounds: \(String(format: "%.2f", ratio))")
        // A shared machine drifts between rounds: pair each SSOKit round with a C round run right before it and
        // take the median of the paired ratios.
        var ratios: [Double] = []
        for _ in 0..<7 {
            let reference = try await measure(seconds: seconds / 2) { try referenceVerify() }
            let candidate = try await measure(seconds: seconds / 2) {
                _ = try verifier.validate(xml: xml, solicitation: solicitation)
            }
            ratios.append(candidate.opsPerSecond / reference.opsPerSecond)
        }
        ratios.sort()
        let paired = ratios.map { String(format: "%.2f", $0) }.joined(separator: " ")
        print("  ratio SSOKit / bare-key C loop, median of 7 paired rounds: \(String(format: "%.2f", ratios[3]))")
        print("    (paired ratios: \(paired); target >= 0.90)")

        try await authnRequests(folder: folder, seconds: seconds, rsaKey: rsaKey, message: message)

        func best(_ body: () throws -> Void) async throws -> BenchmarkStatistics {
            var winner: BenchmarkStatistics?
            for _ in 0..<3 {
                let statistics = try await measure(seconds: seconds) { try body() }
                if winner.map({ statistics.opsPerSecond > $0.opsPerSecond }) ?? true { winner = statistics }
            }
            guard let winner else { throw CocoaError(.featureUnsupported) }
            return winner
        }
    }

    static func authnRequests(folder: URL, seconds: Double, rsaKey: _RSA.Signing.PrivateKey, message: Data)
        async throws
    {
        let key = try SAMLPrivateKey(
            pem: String(contentsOf: folder.appendingPathComponent("keys/sp.key"), encoding: .utf8))
        let builder = try AuthnRequestBuilder(
            serviceProviderEntityID: "https://sp.example.com/saml",
            assertionConsumerServiceURL: "https://sp.example.com/saml/acs")
        let destination = "https://idp.example.com/saml/sso"
        let generate = try await measure(seconds: seconds) {
            let request = try builder.build(destination: destination)
            _ = try RedirectBinding.url(
                destination: destination, xml: request.xml, relayState: "rs-123", signingKey: key)
        }
        let sign = try await measure(seconds: seconds) {
            _ = try rsaKey.signature(for: message, padding: .insecurePKCS1v1_5)
        }
        print("Signed redirect-binding AuthnRequest generation")
        print(
            "  \("SSOKit build + deflate + sign".padding(toLength: 44, withPad: " ", startingAt: 0)) \(generate.summary)"
        )
        print(
            "  \("RSA-2048 sign alone (swift-crypto)".padding(toLength: 44, withPad: " ", startingAt: 0)) \(sign.summary)"
        )
    }
}

/// The fields of a `kind: response` fixture case the benchmark needs.
struct BenchmarkCase {
    let response: String
    let certificate: String
    let spEntityID: String
    let acsURL: String
    let idpEntityID: String?
    let requestID: String
    let now: Date

    static func load(_ url: URL) throws -> BenchmarkCase {
        guard let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any],
            let response = object["response"] as? String, let certificate = (object["idp_certs"] as? [String])?.first,
            let spEntityID = object["sp_entity_id"] as? String, let acsURL = object["acs_url"] as? String,
            let requestID = object["request_id"] as? String,
            let now = (object["now"] as? String).flatMap(SAMLDateTime.parse)
        else { throw CocoaError(.fileReadCorruptFile) }
        return BenchmarkCase(
            response: response, certificate: certificate, spEntityID: spEntityID, acsURL: acsURL,
            idpEntityID: object["idp_entity_id"] as? String, requestID: requestID, now: now)
    }
}
