import HTTPTypes
import Hummingbird
import NIOCore

/// The relying party's answers to browsers: redirects that set cookies, and error pages that name the failure's
/// code and say what to do, with nothing from the request in them. None may be cached.
enum RelyingPartyPages {
    /// A redirect (302 after a GET, 303 after the ACS's POST) to `location`, setting `cookies`.
    static func redirect(to location: String, status: HTTPResponse.Status = .found, cookies: [Cookie] = []) -> Response
    {
        var headers = HTTPFields()
        headers[.location] = location
        headers[.cacheControl] = "no-store"
        for cookie in cookies { headers.append(HTTPField(name: .setCookie, value: cookie.description)) }
        return Response(status: status, headers: headers)
    }

    /// The page for `error`: its status, its message and its code.
    static func error(_ error: RelyingPartyError) -> Response {
        html(
            "Sign-in failed",
            "<p>\(HTMLText.escape(error.message)).</p>\n<p>Error code: <code>\(error.code)</code></p>",
            status: error.status)
    }

    /// A page with `title` and a body of trusted markup.
    static func html(_ title: String, _ body: String, status: HTTPResponse.Status = .ok, policy: String? = nil)
        -> Response
    {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        headers[.contentSecurityPolicy] = policy ?? "default-src 'none'; base-uri 'none'; form-action 'self'"
        let page = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>\(HTMLText.escape(title))</title></head><body>
            <h1>\(HTMLText.escape(title))</h1>
            \(body)
            </body></html>

            """
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: page)))
    }
}
