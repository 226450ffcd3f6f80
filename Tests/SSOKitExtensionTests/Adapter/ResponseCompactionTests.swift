import HTTPTypes
import Testing

@testable import SSOKitExtension

/// The last step of every answer.
@Suite struct ResponseCompactionTests {
    @Test func redirectsLoseTheirBodyAndEveryResponseSaysNoStore() {
        var fields = HTTPFields()
        fields[.location] = "https://app.test/cb"
        fields[.cacheControl] = "public"
        let result = ResponseCompaction.check(
            .httpResponse(CompactHTTPResponse(status: 302, headerFields: fields, body: Array("<html>".utf8))),
            limits: ExtensionLimits())
        guard case .httpResponse(let response) = result else {
            Issue.record("\(result)")
            return
        }
        #expect(
            response.body.isEmpty && response[.cacheControl] == "no-store"
                && response[.location] == "https://app.test/cb")
    }

    @Test func aSAMLResponseValueDoesNotCountButEverythingElseDoes() {
        var fields = HTTPFields()
        fields[.cacheControl] = "no-store"
        let body = [UInt8](repeating: 0x41, count: 5000)
        let exempt = CompactHTTPResponse(status: 200, headerFields: fields, body: body, exemptBytes: 4800)
        #expect(ResponseCompaction.check(.httpResponse(exempt), limits: ExtensionLimits()).failure == nil)
        let counted = CompactHTTPResponse(status: 200, headerFields: fields, body: body)
        #expect(
            ResponseCompaction.check(.httpResponse(counted), limits: ExtensionLimits()).failure
                == AuthorizationFailure(.invalidResponse, .responseTooLarge, ""))
        var large = HTTPFields()
        large[.authorization] = "Bearer " + String(repeating: "t", count: 5000)
        #expect(
            ResponseCompaction.check(.authorizationHeaders(large), limits: ExtensionLimits()).failure?.reason
                == .responseTooLarge)
    }
}
