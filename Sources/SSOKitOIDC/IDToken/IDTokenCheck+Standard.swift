import SSOKitCore

extension IDTokenCheck {
    /// Every check of OIDC Core §3.1.3.7 and §12.2, in the order they run.
    public static let standard: [IDTokenCheck] = [
        .issuer, .audience, .authorizedParty, .expiry, .notBefore, .issuedAt, .nonce, .maxAge, .accessTokenHash,
        .codeHash, .refreshConsistency,
    ]

    /// `iss` equals the configured issuer exactly (step 2).
    public static let issuer = IDTokenCheck(name: "issuer") { claims, context throws(OIDCError) in
        guard claims.issuer == context.configuration.issuer else {
            throw OIDCError(.issuerMismatch, "the token's issuer is not the configured issuer")
        }
    }

    /// `aud` contains the client ID (step 3).
    public static let audience = IDTokenCheck(name: "audience") { claims, context throws(OIDCError) in
        guard claims.audienceIncludes(context.configuration.clientID) else {
            throw OIDCError(.audienceMismatch, "the token's audience does not include this client")
        }
    }

    /// With several audiences `azp` is required; when present it equals the client ID (steps 4 and 5).
    public static let authorizedParty = IDTokenCheck(name: "authorized_party") { claims, context throws(OIDCError) in
        if let party = claims.authorizedParty {
            guard party == context.configuration.clientID else {
                throw OIDCError(.authorizedPartyMismatch, "the token's azp names another client")
            }
        } else if claims.hasSeveralAudiences {
            throw OIDCError(.authorizedPartyMismatch, "a token with several audiences must carry azp")
        }
    }

    /// `exp` is in the future, allowing the clock skew (step 9). Time checks compare exactly, fractions included
    /// (RFC 7519 §2).
    public static let expiry = IDTokenCheck(name: "expiry") { claims, context throws(OIDCError) in
        guard context.now < claims.expiresAt.adding(context.configuration.clockSkew) else {
            throw OIDCError(.tokenExpired, "the token expired")
        }
    }

    /// `nbf`, when present, is in the past, allowing the clock skew (RFC 7519 §4.1.5).
    public static let notBefore = IDTokenCheck(name: "not_before") { claims, context throws(OIDCError) in
        if let notBefore = claims.notBefore, context.now.adding(context.configuration.clockSkew) < notBefore {
            throw OIDCError(.tokenNotYetValid, "the token is not valid yet")
        }
    }

    /// `iat` is not in the future beyond the clock skew (step 10).
    public static let issuedAt = IDTokenCheck(name: "issued_at") { claims, context throws(OIDCError) in
        guard claims.issuedAt <= context.now.adding(context.configuration.clockSkew) else {
            throw OIDCError(.issuedInFuture, "the token was issued in the future")
        }
    }

    /// When a nonce was sent, the token carries exactly it, compared in constant time (step 11).
    public static let nonce = IDTokenCheck(name: "nonce") { claims, context throws(OIDCError) in
        guard let expected = context.expectations.nonce else { return }
        guard let actual = claims.nonce, ConstantTime.equals(actual, expected) else {
            throw OIDCError(.nonceMismatch, "the token's nonce is missing or differs from the one sent")
        }
    }

    /// When `max_age` was sent, `auth_time` is present and recent enough (step 13).
    public static let maxAge = IDTokenCheck(name: "max_age") { claims, context throws(OIDCError) in
        guard let maxAge = context.expectations.maxAge else { return }
        guard let authTime = claims.authTime else {
            throw OIDCError(.missingClaim, "max_age was requested but the \"auth_time\" claim is missing")
        }
        guard context.now <= authTime.adding(maxAge).adding(context.configuration.clockSkew) else {
            throw OIDCError(.maxAgeExceeded, "the authentication is older than max_age allows")
        }
    }

    /// `at_hash`, when both it and the access token are present, matches (OIDC Core §3.1.3.8 / §3.2.2.9).
    public static let accessTokenHash = IDTokenCheck(name: "at_hash") { claims, context throws(OIDCError) in
        guard let hash = claims.accessTokenHash, let token = context.expectations.accessToken else { return }
        guard context.algorithm.halfHashMatches(hash, of: token) else {
            throw OIDCError(.accessTokenHashMismatch, "at_hash does not match the access token")
        }
    }

    /// `c_hash`, when both it and the code are present, matches (OIDC Core §3.3.2.11).
    public static let codeHash = IDTokenCheck(name: "c_hash") { claims, context throws(OIDCError) in
        guard let hash = claims.codeHash, let code = context.expectations.authorizationCode else { return }
        guard context.algorithm.halfHashMatches(hash, of: code) else {
            throw OIDCError(.codeHashMismatch, "c_hash does not match the authorization code")
        }
    }

    /// After a refresh, `iss`, `sub`, `aud`, `azp` and `auth_time` equal the original token's (OIDC Core §12.2).
    public static let refreshConsistency = IDTokenCheck(name: "refresh_consistency") {
        claims, context throws(OIDCError) in
        guard let previous = context.expectations.previousClaims else { return }
        guard claims.issuer == previous.issuer, claims.subject == previous.subject,
            Set(claims.audience) == Set(previous.audience), claims.authorizedParty == previous.authorizedParty,
            claims.authTime == nil || previous.authTime == nil || claims.authTime == previous.authTime
        else {
            throw OIDCError(.refreshClaimsMismatch, "the refreshed ID token changed iss, sub, aud, azp or auth_time")
        }
    }
}
