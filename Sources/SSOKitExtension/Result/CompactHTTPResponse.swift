import HTTPTypes

/// A small HTTP response for the calling app or browser: a 302, a tiny auto-post form, or tokens for a native app.
///
/// The adapter checks every one before it is returned (``ExtensionLimits/maximumResponseBytes``): its size, without
/// the value of a SAMLResponse it carries, is the body plus every header name and value.
public struct CompactHTTPResponse: Sendable, Hashable {
    /// The status code.
    public let status: Int
    /// The headers: only those the answer needs, always with `Cache-Control: no-store`.
    public let headerFields: HTTPFields
    /// The body (empty for a redirect).
    public let body: [UInt8]
    /// Bytes of the body that are a SAMLResponse value, which the size cap does not count.
    let exemptBytes: Int
    /// The bytes the size cap counts: the body without a SAMLResponse value, and every header name and value.
    public let countedBytes: Int

    /// Creates a response.
    public init(status: Int, headerFields: HTTPFields, body: [UInt8] = []) {
        self.init(status: status, headerFields: headerFields, body: body, exemptBytes: 0)
    }

    init(status: Int, headerFields: HTTPFields, body: [UInt8], exemptBytes: Int) {
        self.status = status
        self.headerFields = headerFields
        self.body = body
        self.exemptBytes = exemptBytes
        var total = body.count - exemptBytes
        for field in headerFields { total += field.name.rawName.utf8.count + field.value.utf8.count }
        countedBytes = total
    }

    /// The value of the first header called `name`.
    public subscript(_ name: HTTPField.Name) -> String? { headerFields[name] }
}
