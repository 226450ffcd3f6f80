import SSOKitCore
import Testing

@Suite("FormURLEncoding")
struct FormURLEncodingTests {
    @Test("space becomes '+'")
    func space() {
        #expect(FormURLEncoding.escape(" ") == "+")
        #expect(FormURLEncoding.escape("openid profile email") == "openid+profile+email")
    }

    @Test("ALPHA, DIGIT and *-._ are left alone")
    func unescapedSet() {
        let safe = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789*-._"
        #expect(FormURLEncoding.escape(safe) == safe)
    }

    @Test(
        "reserved and other ASCII characters are percent-encoded in upper-case hex",
        arguments: [
            ("+", "%2B"), ("%", "%25"), ("&", "%26"), ("=", "%3D"), ("?", "%3F"), ("/", "%2F"), (":", "%3A"),
            ("#", "%23"), ("[", "%5B"), ("]", "%5D"), ("@", "%40"), ("!", "%21"), ("$", "%24"), ("'", "%27"),
            ("(", "%28"), (")", "%29"), (",", "%2C"), (";", "%3B"), ("~", "%7E"), ("\"", "%22"), ("<", "%3C"),
            (">", "%3E"), ("\\", "%5C"), ("^", "%5E"), ("`", "%60"), ("{", "%7B"), ("|", "%7C"), ("}", "%7D"),
            ("\n", "%0A"), ("\r", "%0D"), ("\t", "%09"), ("\u{0}", "%00"), ("\u{7F}", "%7F"),
        ])
    func reserved(_ character: String, _ escaped: String) {
        #expect(FormURLEncoding.escape(character) == escaped)
        #expect(FormURLEncoding.unescape(escaped) == character)
    }

    @Test(
        "non-ASCII text is percent-encoded as UTF-8",
        arguments: [
            ("é", "%C3%A9"), ("日本", "%E6%97%A5%E6%9C%AC"), ("😀", "%F0%9F%98%80"), ("a é", "a+%C3%A9"),
        ])
    func utf8(_ text: String, _ escaped: String) {
        #expect(FormURLEncoding.escape(text) == escaped)
        #expect(FormURLEncoding.unescape(escaped) == text)
    }

    @Test("encode joins pairs in order")
    func encodePairs() {
        let encoded = FormURLEncoding.encode([
            ("grant_type", "authorization_code"), ("redirect_uri", "http://127.0.0.1:8765/callback"),
            ("scope", "openid email"), ("a&b", "c=d"),
        ])
        #expect(
            encoded
                == "grant_type=authorization_code&redirect_uri=http%3A%2F%2F127.0.0.1%3A8765%2Fcallback"
                + "&scope=openid+email&a%26b=c%3Dd")
        #expect(FormURLEncoding.encode([]) == "")
    }

    @Test("decode reads pairs in order, '+' as space, lower- and upper-case hex")
    func decodePairs() throws {
        let pairs = try #require(FormURLEncoding.decode("code=abc%2fdef&state=x+y&empty=&bare&k=v=w&%c3%a9=%C3%A9"))
        #expect(pairs.map(\.0) == ["code", "state", "empty", "bare", "k", "é"])
        #expect(pairs.map(\.1) == ["abc/def", "x y", "", "", "v=w", "é"])
    }

    @Test("decode skips empty segments and keeps repeated names")
    func decodeEmptyAndRepeated() throws {
        let pairs = try #require(FormURLEncoding.decode("&a=1&&a=2&"))
        #expect(pairs.map(\.0) == ["a", "a"])
        #expect(pairs.map(\.1) == ["1", "2"])
        #expect(try #require(FormURLEncoding.decode("")).isEmpty)
    }

    static let roundTripSamples: [String] = [
        "", "plain", "with space", "a+b", "100%", "a=b&c=d", "http://127.0.0.1:8765/cb?x=1#frag", "ünïcødé ✓",
        "emoji 🔐 key", "tab\tnew\nline", "~!@#$%^&*()_+-=[]{}|;':\",./<>?`", "%zz is literal here",
    ]

    @Test("escape then unescape gives the original text", arguments: roundTripSamples)
    func roundTrip(_ text: String) {
        #expect(FormURLEncoding.unescape(FormURLEncoding.escape(text)) == text)
    }

    @Test("encode then decode gives the original pairs")
    func pairsRoundTrip() throws {
        let pairs = Self.roundTripSamples.enumerated().map { ("k\($0.offset) \($0.element)", $0.element) }
        let decoded = try #require(FormURLEncoding.decode(FormURLEncoding.encode(pairs)))
        // Pairs with an empty name and value encode to "=" and come back; nothing is lost or reordered.
        #expect(decoded.map(\.0) == pairs.map(\.0))
        #expect(decoded.map(\.1) == pairs.map(\.1))
    }

    @Test(
        "malformed percent escapes and invalid UTF-8 are refused",
        arguments: [
            "%zz", "%", "%4", "%G0", "%0G", "a%", "a%2", "%%41", "%FF", "%C3", "%C3%28", "%ED%A0%80", "%C0%AF",
        ])
    func malformedUnescape(_ text: String) {
        #expect(FormURLEncoding.unescape(text) == nil)
    }

    @Test(
        "decode refuses a query with a malformed escape in a name or a value",
        arguments: ["a=%zz", "%zz=a", "code=abc&state=%", "x=1&y=%FF"])
    func malformedDecode(_ query: String) {
        #expect(FormURLEncoding.decode(query) == nil)
    }
}
