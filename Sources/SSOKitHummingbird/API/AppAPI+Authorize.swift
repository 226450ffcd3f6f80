import Hummingbird
import SSOKitExtension

extension AppAPI {
    /// `POST /v1/authorize`.
    func authorize(_ request: Request, _ context: Context) async -> Response {
        do throws(AppAPIError) {
            let caller = try await identify(request, context)
            let bytes = try await body(of: request)
            let authorization: AuthorizationRequest
            do {
                authorization = try AuthorizationRequest(json: bytes)
            } catch {
                throw AppAPIError(error)
            }
            guard authorization.operation != .configurationRemoved else { throw AppAPIError.operationNotPermitted }
            guard registry.permits(caller, application: authorization.callerBundleIdentifier) else {
                context.logger.notice(
                    "app not permitted",
                    metadata: ["caller": "\(caller)", "app": "\(authorization.callerBundleIdentifier)"])
                throw AppAPIError.appNotPermitted
            }
            let result = await bound(await slot.adapter.authorize(authorization), to: caller)
            log(result, context, ["route": "authorize", "operation": "\(authorization.operation)",
                "app": "\(authorization.callerBundleIdentifier)", "caller": "\(caller)"])
            return JSONResponse.make(text: result.jsonText)
        } catch {
            log(error, context, route: "authorize")
            return error.response
        }
    }

    /// `POST /v1/interactions/{id}`.
    func resume(_ request: Request, _ context: Context) async -> Response {
        do throws(AppAPIError) {
            let caller = try await identify(request, context)
            let bytes = try await body(of: request)
            let answer: InteractionResponse
            do {
                answer = try InteractionResponse(json: bytes)
            } catch {
                throw AppAPIError(error)
            }
            guard let id = context.parameters.get("id"), await owners.claim(id, by: caller.description) else {
                throw AppAPIError.interactionNotFound
            }
            let result = await bound(await slot.adapter.resume(interaction: id, with: answer), to: caller)
            log(result, context, ["route": "interaction", "caller": "\(caller)"])
            return JSONResponse.make(text: result.jsonText)
        } catch {
            log(error, context, route: "interaction")
            return error.response
        }
    }

    /// The caller the connection proves, or 403.
    func identify(_ request: Request, _ context: Context) async throws(AppAPIError) -> CallerIdentity {
        guard let caller = await identification.resolve(request, context) else {
            throw AppAPIError.callerNotIdentified
        }
        return caller
    }

    /// `result`, with a new interaction bound to `caller`; an interaction that cannot be bound is a failure (no one
    /// could resume it).
    func bound(_ result: AuthorizationResult, to caller: CallerIdentity) async -> AuthorizationResult {
        guard case .needsInteraction(let interaction) = result else { return result }
        guard await owners.record(interaction, owner: caller.description) else {
            return .failure(
                AuthorizationFailure(.failed, .storeUnavailable, "the pending interaction could not be recorded"))
        }
        return result
    }

    private func log(_ result: AuthorizationResult, _ context: Context, _ metadata: Logger.Metadata) {
        var metadata = metadata
        metadata["result"] = "\(result.kind)"
        if case .failure(let failure) = result {
            metadata["code"] = "\(failure.code)"
            metadata["reason"] = "\(failure.reason)"
        }
        context.logger.info("answered", metadata: metadata)
    }

    private func log(_ error: AppAPIError, _ context: Context, route: String) {
        context.logger.info(
            "refused", metadata: ["route": "\(route)", "status": "\(error.status.code)", "error": "\(error.code)"])
    }
}
