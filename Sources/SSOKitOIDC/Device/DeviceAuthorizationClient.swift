import Foundation
import HTTPTypes
import SSOKitCore

/// The device authorization grant (RFC 8628): start, then poll the token endpoint until the user decides.
public struct DeviceAuthorizationClient: Sendable {
    /// Waits between polls; injectable so tests run without real delays.
    public typealias Sleep = @Sendable (_ seconds: Int64) async throws -> Void

    /// The longest a device code is polled for, whatever `expires_in` says: 30 minutes (RFC 8628 §3.2's example
    /// lifetime).
    public static let maximumLifetime: TimeInterval = 1800

    private let endpoint: URL
    private let tokens: TokenClient
    private let clock: any SSOKitClock
    private let sleep: Sleep

    /// Creates a client for `endpoint` (the `device_authorization_endpoint`) and the token client to poll with.
    public init(
        endpoint: URL, tokenClient: TokenClient, clock: any SSOKitClock = SystemClock(),
        sleep: @escaping Sleep = { seconds in try await Task.sleep(for: .seconds(seconds)) }
    ) throws(OIDCError) {
        guard EndpointSecurity.isAllowed(endpoint) else {
            throw OIDCError(.insecureURL, "the device authorization endpoint must be https")
        }
        self.endpoint = endpoint
        self.tokens = tokenClient
        self.clock = clock
        self.sleep = sleep
    }

    /// Requests a device and user code (RFC 8628 §3.1).
    ///
    /// What will be shown or opened is checked first: `verification_uri(_complete)` must be https (or http on a
    /// loopback host, else `insecure_url`) and printable ASCII, the `user_code` free of control and format
    /// characters (else `invalid_token_response`); `expires_in` is capped at ``maximumLifetime``.
    public func start(scopes: [String]) async throws(OIDCError) -> DeviceAuthorization {
        let response = try await tokens.post([("scope", scopes.joined(separator: " "))], to: endpoint)
        let object = try? ProviderHTTP.jsonObject(response.body, failure: .invalidTokenResponse, what: "response")
        guard response.response.status.code == 200, let object else {
            if let error = object?["error"]?.stringValue {
                throw OAuthErrorMapping.error(code: error, description: object?["error_description"]?.stringValue)
            }
            throw OIDCError(.unexpectedStatus, "the device endpoint answered HTTP \(response.response.status.code)")
        }
        guard let deviceCode = object["device_code"]?.stringValue, let userCode = object["user_code"]?.stringValue,
            let verificationURI = (object["verification_uri"] ?? object["verification_url"])?.stringValue
        else {
            throw OIDCError(.invalidTokenResponse, "the device authorization response lacks a required member")
        }
        let lifetime = try DeviceDisplayRules.lifetime(object["expires_in"], maximum: Self.maximumLifetime)
        var complete: String?
        if let value = object["verification_uri_complete"] {
            guard let text = value.stringValue else {
                throw OIDCError(.invalidTokenResponse, "verification_uri_complete is not a string")
            }
            complete = try DeviceDisplayRules.verificationURI(text, member: "verification_uri_complete")
        }
        let interval = object["interval"]?.int64Value ?? 5
        return DeviceAuthorization(
            deviceCode: deviceCode, userCode: try DeviceDisplayRules.userCode(userCode),
            verificationURI: try DeviceDisplayRules.verificationURI(verificationURI, member: "verification_uri"),
            verificationURIComplete: complete, expiresAt: clock.now.addingTimeInterval(lifetime),
            interval: max(1, min(interval, 60)))
    }

    /// Polls until tokens arrive: `authorization_pending` waits another interval, `slow_down` adds 5 s to it
    /// (§3.5); `access_denied` and `expired_token` end with those errors; past `expiresAt` with `expired_token`.
    public func poll(_ authorization: DeviceAuthorization) async throws(OIDCError) -> TokenSet {
        var interval = authorization.interval
        while clock.now < authorization.expiresAt {
            do {
                try await sleep(interval)
            } catch {
                throw OIDCError(.deviceFlowTimedOut, "polling was cancelled")
            }
            do {
                return try await tokens.requestTokens([
                    ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"),
                    ("device_code", authorization.deviceCode),
                ])
            } catch let error where error.code == .authorizationPending {
                continue
            } catch let error where error.code == .slowDown {
                interval += 5
            }
        }
        throw OIDCError(.expiredToken, "the device code expired before the user approved")
    }
}
