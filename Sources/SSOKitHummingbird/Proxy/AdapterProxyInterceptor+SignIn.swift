import Foundation
import HTTPTypes
import SSOKitCore
import SSOKitExtension
import SSOKitOIDC
import SSOKitProxy

extension AdapterProxyInterceptor {
    /// Shows the sign-in page for `interaction`, bound to this browser by a new cookie.
    func page(
        _ interaction: Interaction, fields: [CredentialField], owners: InteractionOwners, url: String,
        request: InterceptedRequest
    ) async -> InterceptionDecision {
        let secret = RandomToken.make(byteCount: 32)
        guard await owners.hasRoom(for: SignInCookie.owner(secret)) else {
            let (response, body) = SignInPage.response(
                Self.notice("Too many sign-ins are waiting to be finished. Finish one, or try again later."),
                status: .tooManyRequests)
            return .respond(response, body: body)
        }
        guard await owners.record(interaction, owner: SignInCookie.owner(secret)) else {
            return Self.decision(
                for: .failure(AuthorizationFailure(.failed, .storeUnavailable, "the sign-in could not be recorded")))
        }
        let cookie = SignInCookie.set(
            id: interaction.id, secret: secret, secure: request.request.scheme == "https",
            lifetime: max(1, Int(interaction.expiresAt.timeIntervalSinceNow)), path: SignInCookie.path(for: request))
        let (response, body) = SignInPage.response(
            SignInPage(interaction: interaction, fields: fields, action: url).html, setCookie: cookie)
        return .respond(response, body: body)
    }

    /// Resumes the interaction a posted sign-in form answers, if this browser started it.
    func signIn(_ answer: SignInAnswer, owners: InteractionOwners, url: String, path: String) async
        -> InterceptionDecision
    {
        var cleared = HTTPFields()
        cleared[.setCookie] = SignInCookie.clear(id: answer.interactionID, path: path)
        guard let secret = answer.secret, await owners.claim(answer.interactionID, by: SignInCookie.owner(secret))
        else {
            let (response, body) = SignInPage.response(
                Self.notice("This sign-in has expired or belongs to another browser. Start again from the app."),
                status: .forbidden)
            return .respond(response, body: body)
        }
        let result = await slot.adapter.resume(
            interaction: answer.interactionID, with: .credentials(answer.credentials))
        record(url, result, asked: true)
        if case .failure(let failure) = result, failure.reason == .invalidCredentials {
            var (response, body) = SignInPage.response(
                Self.notice("The identity provider refused these credentials. Start again from the app."),
                status: .unauthorized)
            response.headerFields.append(contentsOf: cleared)
            return .respond(response, body: body)
        }
        return Self.decision(for: result, extraFields: cleared)
    }

    static func notice(_ text: String) -> String {
        """
        <!DOCTYPE html>
        <html><head><meta charset="utf-8"><title>Sign in</title></head>
        <body><h1>Sign in</h1><p role="alert">\(HTMLText.escape(text))</p></body></html>

        """
    }
}

/// A posted sign-in form: the interaction it answers, the fields, and the browser's binding cookie.
struct SignInAnswer {
    let interactionID: String
    let credentials: [String: String]
    let secret: String?

    /// The answer in `request`, when it is a form POST carrying ``SignInPage/interactionField``.
    init?(_ request: InterceptedRequest) {
        guard request.request.method == .post,
            request.request.headerFields[.contentType]?.lowercased().hasPrefix("application/x-www-form-urlencoded")
                == true,
            let pairs = FormURLEncoding.decode(String(decoding: request.body, as: UTF8.self)),
            let id = pairs.first(where: { $0.0 == SignInPage.interactionField })?.1
        else { return nil }
        interactionID = id
        var fields: [String: String] = [:]
        for (name, value) in pairs where name != SignInPage.interactionField && fields[name] == nil {
            fields[name] = value
        }
        credentials = fields
        secret = SignInCookie.value(id: id, in: request.request.headerFields[.cookie])
    }
}

/// The cookie that binds a sign-in page to the browser it was shown to: `ssokit_signin_<interaction ID>`, a
/// 256-bit random value, HttpOnly, SameSite=Strict, on the intercepted origin and only for the intercepted path
/// (where the page posts back); the proxy also removes it from every request it passes to the IdP.
enum SignInCookie {
    static let prefix = "ssokit_signin_"

    static func owner(_ secret: String) -> String { "browser:" + secret }

    static func set(id: String, secret: String, secure: Bool, lifetime: Int, path: String) -> String {
        "\(prefix)\(id)=\(secret); Path=\(path); Max-Age=\(lifetime); HttpOnly; SameSite=Strict"
            + (secure ? "; Secure" : "")
    }

    static func clear(id: String, path: String) -> String {
        "\(prefix)\(id)=; Path=\(path); Max-Age=0; HttpOnly; SameSite=Strict"
    }

    /// The cookie's path: the intercepted request's own path (its query aside), which the page's form posts back
    /// to; the prefix's path when the request's is not a plain cookie path value (RFC 6265 §4.1.1), else `/`.
    static func path(for request: InterceptedRequest) -> String {
        let requestPath = String((request.request.path ?? "/").prefix { $0 != "?" })
        return [requestPath, request.prefix.path].first(where: isPathValue) ?? "/"
    }

    private static func isPathValue(_ path: String) -> Bool {
        path.hasPrefix("/") && path.utf8.count <= 1024
            && path.utf8.allSatisfy { (0x21...0x7e).contains($0) && $0 != 0x3b }
    }

    /// The value of the cookie for `id` in a `Cookie` header.
    static func value(id: String, in header: String?) -> String? {
        pairs(header).first { $0.name == prefix + id }?.value
    }

    /// `header` without the sign-in cookies (they are the extension's, not the IdP's); nil when nothing remains.
    static func removing(from header: String?) -> String? {
        let kept = pairs(header).filter { !$0.name.hasPrefix(prefix) }.map { "\($0.name)=\($0.value)" }
        return kept.isEmpty ? nil : kept.joined(separator: "; ")
    }

    private static func pairs(_ header: String?) -> [(name: String, value: String)] {
        guard let header else { return [] }
        return header.split(separator: ";").compactMap { part in
            let trimmed = part.trimmingCharacters(in: .whitespaces)
            guard let equals = trimmed.firstIndex(of: "=") else { return nil }
            return (String(trimmed[..<equals]), String(trimmed[trimmed.index(after: equals)...]))
        }
    }
}
