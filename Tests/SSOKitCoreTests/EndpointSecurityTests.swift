import Foundation
import SSOKitCore
import Testing

@Suite("EndpointSecurity")
struct EndpointSecurityTests {
    @Test(
        "https is allowed on any host; http only on loopback hosts",
        arguments: [
            "https://idp.example.com",
            "https://idp.example.com/",
            "https://idp.example.com:8443/realms/main/.well-known/openid-configuration?x=1",
            "https://10.0.0.1/",
            "HTTPS://IDP.EXAMPLE.COM/",
            "http://127.0.0.1/",
            "http://127.0.0.1:8765/callback",
            "http://127.1.2.3:80/",
            "http://127.255.255.255/",
            "http://localhost/",
            "http://localhost:8080/token",
            "http://LocalHost:8080/",
            "http://[::1]/",
            "http://[::1]:8080/jwks",
            "http://[0:0:0:0:0:0:0:1]:9000/",
        ])
    func allowed(_ string: String) throws {
        let url = try #require(URL(string: string))
        #expect(EndpointSecurity.isAllowed(url))
    }

    @Test(
        "plain http off loopback, look-alike hosts, user info, other schemes and relative URLs are refused",
        arguments: [
            "http://idp.example.com/",
            "http://10.0.0.1/",
            "http://192.168.1.1:8080/",
            "http://0.0.0.0/",
            "http://128.0.0.1/",
            "http://126.0.0.1/",
            "http://127.0.0.1.nip.io/",
            "http://127.0.0.1.example.com/",
            "http://localhost.example.com/",
            "http://evil-localhost/",
            "http://127.0.0.256/",
            "http://127.0.0/",
            "http://[::2]/",
            "https://user@idp.example.com/",
            "https://user:secret@idp.example.com/",
            "https://@idp.example.com/",
            "http://user@127.0.0.1/",
            "http://127.0.0.1@evil.example.com/",
            "ftp://idp.example.com/",
            "ftp://127.0.0.1/",
            "file:///etc/passwd",
            "ws://127.0.0.1/",
            "javascript:alert(1)",
            "https:///no-host",
            "/relative/path",
            "idp.example.com",
        ])
    func refused(_ string: String) throws {
        let url = try #require(URL(string: string))
        #expect(!EndpointSecurity.isAllowed(url))
    }

    @Test(
        "loopback hosts",
        arguments: [
            "localhost", "LOCALHOST", "127.0.0.1", "127.0.0.2", "127.10.20.30", "127.255.255.255", "127.000.000.001",
            "::1", "[::1]", "0:0:0:0:0:0:0:1", "[0:0:0:0:0:0:0:1]",
        ])
    func loopback(_ host: String) {
        #expect(EndpointSecurity.isLoopback(host: host))
    }

    @Test(
        "non-loopback hosts",
        arguments: [
            "", "idp.example.com", "10.0.0.1", "1.127.0.0", "128.0.0.1", "127.0.0", "127.0.0.1.1", "127.0.0.1.nip.io",
            "127.0.0.256", "127.0.0.1000", "127.0.0.-1", "127.0.0.1a", "127..0.1", "127.0.0.", "127.0.0.١",
            "localhost.", "localhost.example.com", "mylocalhost", "::2", "::", "[::1", "::1]", "0.0.0.0",
        ])
    func notLoopback(_ host: String) {
        #expect(!EndpointSecurity.isLoopback(host: host))
    }
}
