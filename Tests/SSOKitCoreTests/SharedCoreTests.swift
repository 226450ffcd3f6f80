import Foundation
import SSOKitCore
import Testing

@Suite("The pieces every module shares")
struct SharedCoreTests {
    @Test("SSOKitError: equal and hashed by code alone; described as `code: reason`")
    func errorIdentity() {
        let first = HTTPTransportError(.timeout, "the IdP took too long")
        let second = HTTPTransportError(.timeout, "another reason")
        let other = HTTPTransportError(.connectionFailed, "the IdP took too long")
        #expect(first == second)
        #expect(first != other)
        #expect(Set([first, second, other]).count == 2)
        #expect(first.description == "timeout: the IdP took too long")
    }

    @Test(
        "StrictBase64: base64url refuses padding, whitespace and the standard alphabet",
        arguments: ["QQ==", "QQ A", "+/+/", "QUJD\n", "Q"])
    func base64URLRefuses(_ text: String) {
        #expect(decode(text, .base64URL) == nil)
    }

    @Test("StrictBase64: the padded flavour skips whitespace, needs its padding, and refuses non-zero trailing bits")
    func paddedFlavour() {
        #expect(decode("QUJD\r\nRA==", .lineWrappedPadded) == Array("ABCD".utf8))
        #expect(decode("+/8=", .lineWrappedPadded) == [0xFB, 0xFF])
        #expect(decode("QUJDRA", .lineWrappedPadded) == nil)  // missing padding
        #expect(decode("QUJDRA=", .lineWrappedPadded) == nil)  // half the padding
        #expect(decode("QR==", .lineWrappedPadded) == nil)  // non-zero trailing bits
        #expect(decode("QQ==QQ==", .lineWrappedPadded) == nil)  // data after padding
        #expect(decode("-_8=", .lineWrappedPadded) == nil)  // the URL alphabet
    }

    @Test("StrictBase64: both flavours decode the same bytes from their own alphabets")
    func sameBytes() {
        let bytes = (0...255).map { UInt8($0) }
        let url = Base64URL.encode(bytes)
        let standard = url.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/") + "=="
        #expect(decode(url, .base64URL) == bytes)
        #expect(decode(standard, .lineWrappedPadded) == bytes)
    }

    @Test("FormURLEncoding: the RFC 3986 unreserved set keeps `~` and escapes `*`; both unescape the same way")
    func unreservedSafeSet() {
        #expect(FormURLEncoding.escape("a~b*c d", keeping: .unreserved) == "a~b%2Ac+d")
        #expect(FormURLEncoding.escape("a~b*c d", keeping: .form) == "a%7Eb*c+d")
        #expect(FormURLEncoding.unescape("a~b%2Ac+d") == "a~b*c d")
        #expect(FormURLEncoding.unescape("a%7Eb*c+d") == "a~b*c d")
    }

    @Test("SecureRandom: the length asked for, and two draws differ")
    func randomBytes() {
        #expect(SecureRandom.bytes(0).isEmpty)
        #expect(SecureRandom.bytes(32).count == 32)
        #expect(SecureRandom.bytes(32) != SecureRandom.bytes(32))
    }

    private func decode(_ text: String, _ options: StrictBase64.Options) -> [UInt8]? {
        Array(text.utf8).withUnsafeBytes { StrictBase64.decode($0, options: options) }
    }
}
