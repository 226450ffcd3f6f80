import Foundation
import HTTPTypes

/// The last step of every answer: a redirect carries no body, every response says `Cache-Control: no-store`, and
/// nothing larger than ``ExtensionLimits/maximumResponseBytes`` (besides a SAMLResponse value) leaves: it becomes
/// `invalid_response` / `response_too_large` instead, never a large page.
enum ResponseCompaction {
    static func check(_ result: AuthorizationResult, limits: ExtensionLimits) -> AuthorizationResult {
        switch result {
        case .httpResponse(let response):
            var checked = response
            let isRedirect = (300..<400).contains(response.status)
            // A linear look: a subscript would build the fields' name index on every answer.
            let noStore = response.headerFields.contains { $0.name == .cacheControl && $0.value == "no-store" }
            if !noStore || (isRedirect && !response.body.isEmpty) {
                var fields = response.headerFields
                fields[.cacheControl] = "no-store"  // replaces every Cache-Control field
                checked = CompactHTTPResponse(
                    status: response.status, headerFields: fields, body: isRedirect ? [] : response.body,
                    exemptBytes: isRedirect ? 0 : response.exemptBytes)
            }
            guard checked.countedBytes <= limits.maximumResponseBytes,
                checked.exemptBytes <= limits.maximumSAMLResponseBytes
            else { return tooLarge(limits) }
            return .httpResponse(checked)
        case .authorizationHeaders(let fields):
            let size = fields.reduce(0) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count }
            return size <= limits.maximumResponseBytes ? result : tooLarge(limits)
        case .needsInteraction(let interaction):
            let size: Int
            switch interaction.kind {
            case .browser(let url): size = url.absoluteString.utf8.count
            case .credentials(let fields): size = fields.reduce(0) { $0 + $1.name.utf8.count + 1 }
            }
            return size <= limits.maximumInteractionBytes ? result : tooLarge(limits)
        case .doNotHandle, .failure:
            return result
        }
    }

    private static func tooLarge(_ limits: ExtensionLimits) -> AuthorizationResult {
        .failure(
            AuthorizationFailure(
                .invalidResponse, .responseTooLarge,
                "the answer would be larger than \(limits.maximumResponseBytes) bytes (a SAMLResponse value: "
                    + "\(limits.maximumSAMLResponseBytes))"))
    }
}
