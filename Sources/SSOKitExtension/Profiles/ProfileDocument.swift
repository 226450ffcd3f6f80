import Foundation
import SSOKitCore
import SSOKitOIDC

/// A profile's top-level dictionary, whichever form it came in, and what its signature proved.
struct ProfileDocument {
    /// The outer dictionary (PayloadType `Configuration`, PayloadContent, ...).
    var root: [String: ProfileValue]
    var signature: ProfileSignature

    /// Reads an XML property list, a JSON object, or CMS SignedData around either, by their first byte.
    static func read(
        _ bytes: [UInt8], limits: ProfileLimits, anchors: ProfileTrustAnchors?, now: Date
    ) throws(ProfileError) -> ProfileDocument {
        guard bytes.count <= limits.maximumProfileBytes else {
            throw ProfileError(.profileTooLarge, "the profile is larger than \(limits.maximumProfileBytes) bytes")
        }
        guard Form(of: bytes) == .signed else {
            return ProfileDocument(root: try unsignedRoot(bytes, limits: limits), signature: .unsigned)
        }
        let opened = try SignedProfileContent.open(bytes, anchors: anchors, now: now)
        guard Form(of: opened.content) != .signed else {
            throw ProfileError(.unsupportedFormat, "the signed profile holds another signed profile")
        }
        return ProfileDocument(root: try unsignedRoot(opened.content, limits: limits), signature: opened.signature)
    }

    private static func unsignedRoot(_ bytes: [UInt8], limits: ProfileLimits) throws(ProfileError)
        -> [String: ProfileValue]
    {
        let value: ProfileValue
        switch Form(of: bytes) {
        case .propertyList: value = try propertyList(bytes, limits: limits)
        case .json: value = try json(bytes, limits: limits)
        case .binaryPropertyList:
            throw ProfileError(.unsupportedFormat, "binary property lists are not read; use an XML property list")
        case .signed, .unknown:
            throw ProfileError(.malformedProfile, "the profile is neither a property list, JSON, nor CMS SignedData")
        }
        guard let root = value.dictionaryValue else {
            throw ProfileError(.malformedProfile, "the profile's top level is not a dictionary")
        }
        return root
    }

    private static func propertyList(_ bytes: [UInt8], limits: ProfileLimits) throws(ProfileError) -> ProfileValue {
        try PropertyListPrologue.check(bytes)
        return try XMLPropertyListReader.read(bytes, maximumDepth: limits.maximumDepth)
    }

    private static func json(_ bytes: [UInt8], limits: ProfileLimits) throws(ProfileError) -> ProfileValue {
        let parsed: JSONValue
        do {
            parsed = try JSONParser(maximumDepth: limits.maximumDepth).parse(bytes)
        } catch {
            throw ProfileError(
                .malformedProfile, "the profile is not valid JSON (at byte \(error.offset): \(error.reason))")
        }
        guard let value = try ProfileValue.fromJSON(parsed) else {
            throw ProfileError(.malformedProfile, "the profile's top level is null")
        }
        return value
    }

    /// What the first significant byte says the input is.
    private enum Form: Equatable {
        case propertyList, binaryPropertyList, json, signed, unknown

        init(of bytes: [UInt8]) {
            if bytes.starts(with: "bplist".utf8) {
                self = .binaryPropertyList
                return
            }
            var index = 0
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
            guard index < bytes.count else {
                self = .unknown
                return
            }
            switch bytes[index] {
            case UInt8(ascii: "<"): self = .propertyList
            case UInt8(ascii: "{"): self = .json
            // A DER or BER SEQUENCE (ContentInfo) at the very start.
            case 0x30 where index == 0: self = .signed
            default: self = .unknown
            }
        }
    }
}
