import Foundation
import SSOKitConformance
import SSOKitOIDC
import SSOKitSAML

/// The files under `fixtures/` that targets load: keys, key sets, documents and cases. Test keys only.
enum FuzzFixtures {
    struct SetupFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// The `fixtures/` folder (`SSOKIT_FIXTURES` overrides where it is looked for).
    static func root() throws -> URL {
        guard let root = FixtureLoader.fixturesDirectory() else {
            throw SetupFailure(description: "fixtures/ not found")
        }
        return root
    }

    static func bytes(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: root().appendingPathComponent(path)))
    }

    static func text(_ path: String) throws -> String {
        String(decoding: try bytes(path), as: UTF8.self)
    }

    /// The cases of one folder, e.g. `saml/cases`.
    static func cases(_ folder: String) throws -> [FixtureLoader.Case] {
        try FixtureLoader.cases(in: folder, root: root())
    }

    /// The document files of one folder, e.g. `saml/responses`, by file name.
    static func files(in folder: String) throws -> [String: [UInt8]] {
        let directory = try root().appendingPathComponent(folder)
        var result: [String: [UInt8]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            result[name] = Array(try Data(contentsOf: directory.appendingPathComponent(name)))
        }
        return result
    }

    /// A SAML test certificate, e.g. `idp` for `fixtures/saml/keys/idp.crt`.
    static func samlCertificate(_ name: String) throws -> SAMLCertificate {
        try SAMLCertificate(pem: text("saml/keys/\(name).crt"))
    }

    /// The fixtures' world: 2026-01-01T00:00:00Z.
    static let now = Date(timeIntervalSince1970: 1_767_225_600)
}

/// What a target loads once, before its first input. A failure (fixtures not found) becomes a violation on every
/// input, so the driver stops at once with the reason instead of fuzzing nothing.
struct FuzzSetup<Value: Sendable>: Sendable {
    let loaded: Result<Value, FuzzFixtures.SetupFailure>

    init(_ load: () throws -> Value) {
        do {
            loaded = .success(try load())
        } catch {
            loaded = .failure(FuzzFixtures.SetupFailure(description: "fuzz target setup failed: \(error)"))
        }
    }

    func run(_ body: (Value) -> FuzzVerdict) -> FuzzVerdict {
        switch loaded {
        case .success(let value): body(value)
        case .failure(let error): .violated(error.description)
        }
    }

    func runAsync(_ body: (Value) async -> FuzzVerdict) async -> FuzzVerdict {
        switch loaded {
        case .success(let value): await body(value)
        case .failure(let error): .violated(error.description)
        }
    }
}

extension FuzzVerdict {
    /// `accepted` when `body` returns, else `rejected` with the stable code of its typed error.
    static func typed<Failure: Error>(_ body: () throws(Failure) -> Void, code: (Failure) -> String) -> FuzzVerdict {
        do {
            try body()
            return .accepted
        } catch {
            return .rejected(code(error))
        }
    }

    /// `accepted`, or `rejected` with the SAMLError's code.
    static func saml(_ body: () throws(SAMLError) -> Void) -> FuzzVerdict {
        typed(body) { $0.code.description }
    }

    /// `accepted`, or `rejected` with the OIDCError's code.
    static func oidc(_ body: () async throws(OIDCError) -> Void) async -> FuzzVerdict {
        do {
            try await body()
            return .accepted
        } catch {
            return .rejected(error.code.description)
        }
    }
}
