import Foundation
import SSOKitCore

/// Reads configuration profiles that carry `com.apple.extensiblesso` payloads: a `.mobileconfig` XML property list,
/// the same content as JSON (`{"PayloadContent": [...]}`), or CMS SignedData around either (a signed `.mobileconfig`).
///
/// ```swift
/// let loader = ProfileLoader(trustAnchors: try ProfileTrustAnchors(pem: caPEM), fileReader: myReader)
/// let profile = try loader.load(bytes, directory: "/etc/ssokit")
/// let catalog = try ProfileCatalog(profiles: [profile])
/// if let match = catalog.match(url) { ... }
/// ```
///
/// Every rule is checked in one pass and each broken one is reported as a ``ProfileProblem`` naming the payload and
/// the key (``ProfileError/Code-swift.struct/invalidProfile``). The loader never touches files: paths in the profile
/// are resolved against `directory` as values and read through the host's ``ProfileFileReader``.
public struct ProfileLoader: Sendable {
    /// Size and nesting caps.
    public var limits: ProfileLimits
    /// Who may sign profiles. Without anchors a signed profile is `signedNotVerified` (its signature must still be
    /// intact); with them its signer must chain to one. An unsigned profile is read as ``ProfileSignature/unsigned``
    /// either way, unless ``requireVerifiedSignature`` is set.
    public var trustAnchors: ProfileTrustAnchors?
    /// Whether only a profile whose signature chains to ``trustAnchors`` is accepted (default false).
    public var requireVerifiedSignature: Bool
    /// Reads the files the payloads name; nil when the host offers no files (a payload naming one then fails).
    public var fileReader: (any ProfileFileReader)?
    /// The time for certificate validity and metadata `validUntil`.
    public var clock: any SSOKitClock

    /// Creates a loader.
    public init(
        limits: ProfileLimits = ProfileLimits(), trustAnchors: ProfileTrustAnchors? = nil,
        requireVerifiedSignature: Bool = false, fileReader: (any ProfileFileReader)? = nil,
        clock: any SSOKitClock = SystemClock()
    ) {
        self.limits = limits
        self.trustAnchors = trustAnchors
        self.requireVerifiedSignature = requireVerifiedSignature
        self.fileReader = fileReader
        self.clock = clock
    }

    /// Reads and validates one profile; `directory` is the folder its relative paths are resolved against.
    public func load(_ bytes: [UInt8], directory: String? = nil) throws(ProfileError) -> SSOProfile {
        let now = clock.now
        let document = try ProfileDocument.read(bytes, limits: limits, anchors: trustAnchors, now: now)
        if requireVerifiedSignature, case .unsigned = document.signature {
            throw ProfileError(.unsignedProfile, "the profile is not signed")
        }
        if requireVerifiedSignature, case .signedNotVerified = document.signature {
            throw ProfileError(.unsignedProfile, "the profile's signature cannot be verified without trust anchors")
        }
        let files = ProfileFileContext(directory: directory, reader: fileReader, maximumBytes: limits.maximumFileBytes)
        let log = ProblemLog()
        let top = PayloadFields(
            values: document.root, payload: document.root["PayloadIdentifier"]?.stringValue ?? "profile",
            keyPrefix: "", log: log)
        var payloads: [SSOPayload] = []
        var claims: [PayloadClaims] = []
        var others: [String] = []
        for (index, element) in contents(top).enumerated() {
            guard let dictionary = element.dictionaryValue else {
                top.problem("PayloadContent", .wrongType, "PayloadContent[\(index)] is not a dictionary")
                continue
            }
            let type = dictionary["PayloadType"]?.stringValue ?? ""
            guard type == SSOPayload.payloadType else {
                others.append(type)
                continue
            }
            let read = SSOPayload.read(dictionary, index: index, files: files, now: now, log: log)
            if let payload = read.payload { payloads.append(payload) }
            claims.append(read.claims)
        }
        if claims.isEmpty && log.problems.isEmpty {
            top.problem("PayloadContent", .noSSOPayload, "the profile holds no \(SSOPayload.payloadType) payload")
        }
        for problem in PayloadClaims.duplicates(among: claims) { log.append(problem) }
        guard log.problems.isEmpty else { throw ProfileError.invalid(log.problems) }
        return SSOProfile(
            identifier: document.root["PayloadIdentifier"]?.stringValue,
            displayName: document.root["PayloadDisplayName"]?.stringValue, signature: document.signature,
            payloads: payloads, otherPayloadTypes: others, directory: directory)
    }

    /// The PayloadContent array, or an empty one with a problem logged.
    private func contents(_ top: PayloadFields) -> [ProfileValue] {
        guard let value = top.values["PayloadContent"] else {
            top.problem("PayloadContent", .missingKey, "PayloadContent is required")
            return []
        }
        guard let array = value.arrayValue else {
            top.problem("PayloadContent", .wrongType, "PayloadContent must be an array, not \(value.typeName)")
            return []
        }
        return array
    }
}
