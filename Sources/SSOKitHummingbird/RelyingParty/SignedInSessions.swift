import Foundation
import Hummingbird
import SSOKitCore

/// The service's sessions of signed-in browsers, in its persist driver: the session cookie holds a random token,
/// the driver holds the ``SignedInUser`` under the token's digest, and both expire together.
///
/// Every sign-in starts a new session (the previous one of that browser is ended first), so that a session
/// identifier planted before the sign-in is worth nothing after it.
public struct SignedInSessions: Sendable {
    private let driver: any PersistDriver
    private let keyPrefix: String
    private let clock: any SSOKitClock
    let cookies: RelyingPartyCookies
    /// How long a session lasts at most.
    public let lifetime: Duration

    private struct Record: Codable, Sendable {
        var user: SignedInUser
        var expiresAt: Date
    }

    init(
        driver: any PersistDriver, keyPrefix: String, cookies: RelyingPartyCookies, lifetime: Duration,
        clock: any SSOKitClock
    ) {
        self.driver = driver
        self.keyPrefix = keyPrefix
        self.cookies = cookies
        self.lifetime = lifetime
        self.clock = clock
    }

    /// The user signed in on the browser that sent `request`, or nil.
    public func user(for request: Request) async -> SignedInUser? {
        guard let token = RelyingPartyCookies.value(named: cookies.sessionName, in: request),
            let record = try? await driver.get(key: key(token), as: Record.self), clock.now < record.expiresAt
        else { return nil }
        return record.user
    }

    /// Starts a session for `user`, ending the one `request` carries; returns the session cookie to set.
    /// `notAfter` shortens the session (a SAML assertion's SessionNotOnOrAfter).
    func start(_ user: SignedInUser, replacing request: Request, notAfter: Date? = nil) async throws(RelyingPartyError)
        -> Cookie
    {
        await end(request)
        var seconds = Double(lifetime.components.seconds)
        if let notAfter { seconds = min(seconds, notAfter.timeIntervalSince(clock.now)) }
        guard seconds >= 1 else {
            throw RelyingPartyError(
                .assertionRejected, status: .forbidden, "the identity provider's session has already ended")
        }
        let duration = Duration.seconds(Int64(seconds))
        let token = SecretToken.make()
        do {
            try await driver.create(
                key: key(token), value: Record(user: user, expiresAt: clock.now.addingTimeInterval(seconds)),
                expires: duration)
        } catch {
            throw .storageFailed()
        }
        return cookies.session(token, maxAge: duration)
    }

    /// Ends the session `request` carries, if any.
    func end(_ request: Request) async {
        guard let token = RelyingPartyCookies.value(named: cookies.sessionName, in: request) else { return }
        try? await driver.remove(key: key(token))
    }

    private func key(_ token: String) -> String { keyPrefix + "session." + SecretToken.digest(token) }
}
