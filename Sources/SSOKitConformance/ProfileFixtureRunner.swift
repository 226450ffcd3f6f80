import Foundation
import SSOKitCore
import SSOKitExtension
import SSOKitOIDC
import SSOKitSAML

/// Runs the cases of `fixtures/profiles/cases` through SSOKitExtension's public API and compares verdicts (the format
/// is in `fixtures/profiles/README.md`).
public enum ProfileFixtureRunner {
    /// Runs every case in `fixtures/profiles/cases` under `root` (the `fixtures` folder).
    public static func runAll(fixturesRoot root: URL) throws -> [FixtureOutcome] {
        try FixtureLoader.cases(in: "profiles/cases", root: root).map { run($0, fixturesRoot: root) }
    }

    /// Runs one case.
    public static func run(_ fixture: FixtureLoader.Case, fixturesRoot root: URL) -> FixtureOutcome {
        let expected = fixture.string("expect") ?? "missing_expect"
        let actual: String
        do {
            actual = try verdict(fixture, folder: root.appendingPathComponent("profiles"))
        } catch let error as ProfileError {
            actual = problemsVerdict(error, expected: fixture.members["expect_problems"]?.arrayValue)
        } catch {
            actual = "fixture_error"
        }
        return FixtureOutcome(name: fixture.name, expected: expected, actual: actual)
    }

    /// Loads the case's profiles as its options say.
    public static func load(_ fixture: FixtureLoader.Case, folder: URL) throws -> ProfileCatalog {
        guard let paths = fixture.members["profiles"]?.arrayValue?.compactMap(\.stringValue), !paths.isEmpty,
            let now = fixture.string("now").flatMap(SAMLDateTime.parse)
        else { throw CocoaError(.fileReadCorruptFile) }
        var limits = ProfileLimits()
        if let maximum = fixture.members["max_bytes"]?.int64Value { limits.maximumProfileBytes = Int(maximum) }
        let anchors = try fixture.string("trust").map { path in
            try ProfileTrustAnchors(
                pem: String(decoding: Data(contentsOf: folder.appendingPathComponent(path)), as: UTF8.self))
        }
        let loader = ProfileLoader(
            limits: limits, trustAnchors: anchors, fileReader: FixtureFileReader(), clock: FixedClock(now))
        let profiles = try paths.map { path in
            let file = folder.appendingPathComponent("profiles").appendingPathComponent(path)
            return try loader.load(Array(Data(contentsOf: file)), directory: file.deletingLastPathComponent().path)
        }
        return try ProfileCatalog(profiles: profiles)
    }

    private static func verdict(_ fixture: FixtureLoader.Case, folder: URL) throws -> String {
        let catalog = try load(fixture, folder: folder)
        let members = fixture.members
        if let expected = members["expect_signature"]?.stringValue,
            catalog.profiles.contains(where: { $0.signature.name != expected })
        {
            return "signature_mismatch"
        }
        if let expected = members["expect_signer"]?.stringValue {
            for profile in catalog.profiles {
                guard case .verified(let signer) = profile.signature, signer == expected else {
                    return "signer_mismatch"
                }
            }
        }
        if let expected = members["expect_payloads"]?.arrayValue?.compactMap(\.stringValue),
            expected != catalog.payloads.map(\.identifier)
        {
            return "payloads_mismatch"
        }
        for row in members["matches"]?.arrayValue ?? [] {
            guard let text = row["url"]?.stringValue, let url = URL(string: text) else { return "fixture_error" }
            let match = catalog.match(url)
            if match?.payload.identifier != row["payload"]?.stringValue || match?.type.name != row["type"]?.stringValue
            {
                return "match_mismatch:\(text)"
            }
        }
        for row in members["apps"]?.arrayValue ?? [] {
            guard let identifier = row["payload"]?.stringValue, let app = row["app"]?.stringValue,
                let payload = catalog.payload(identifier: identifier)
            else { return "fixture_error" }
            if payload.permits(application: app) != row["permitted"]?.boolValue { return "app_mismatch:\(app)" }
        }
        return "valid"
    }

    /// The error's code, or `problems_mismatch` when the case lists problems that differ from the error's.
    private static func problemsVerdict(_ error: ProfileError, expected: [JSONValue]?) -> String {
        guard let expected else { return error.code.description }
        let wanted = expected.compactMap { row -> String? in
            guard let payload = row["payload"]?.stringValue, let key = row["key"]?.stringValue,
                let code = row["code"]?.stringValue
            else { return nil }
            return "\(payload) \(key) \(code)"
        }
        let found = error.problems.map { "\($0.payload) \($0.key) \($0.code)" }
        return wanted.sorted() == found.sorted() ? error.code.description : "problems_mismatch"
    }
}
