import HTTPTypes

extension DevIdPEndpoints {
    /// `POST /revoke` (RFC 7009 §2): the client authenticates as at the token endpoint. A refresh token takes every
    /// token of its grant with it; an access token only itself. Unknown tokens, and tokens of other clients, get the
    /// same 200 (§2.2), so that the answer tells nothing about them.
    func revoke(_ request: EndpointRequest) async -> EndpointResponse {
        do throws(DevIdPError) {
            let form = try request.formParameters()
            let client = try await authenticateClient(request, form: form, endpoint: site.revocation)
            let token = try form.required("token")
            await stores.grants.revoke(token, clientID: client.clientID, now: now)
            return EndpointResponse(status: .ok, contentType: nil, body: [])
        } catch {
            return Self.tokenError(error, request: request)
        }
    }
}
