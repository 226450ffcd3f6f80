import Hummingbird
import Logging
import SSOKitExtension

extension AppAPI {
    /// `POST /v1/authorize`.
    func authorize(_ request: Request, _ context: Context) async -> Response {
        let start = ContinuousClock.now
        var operation = "unknown"
        do throws(AppAPIError) {
            let caller = try await identify(request, context)
            let bytes = try await body(of: request)
            let authorization: AuthorizationRequest
            do {
                authorization = try AuthorizationRequest(json: bytes)
            } catch {
                throw AppAPIError(error)
            }
            operation = AppAPIMetrics.dimension(authorization.operation)
            guard authorization.operation != .configurationRemoved else { throw AppAPIError.operationNotPermitted }
            guard registry.permits(caller, application: authorization.callerBundleIdentifier) else {
                context.logger.notice(
                    "app not permitted",
                    metadata: ["caller": "\(caller)", "app": "\(authorization.callerBundleIdentifier)"])
                throw AppAPIError.appNotPermitted
            }
            let adapter = slot.adapter
            let result = await bound(
                await counted("authorize") { await adapter.authorize(authorization) }, to: caller)
            log(
                result, context,
                [
                    "route": "authorize", "operation": "\(authorization.operation)",
                    "app": "\(authorization.callerBundleIdentifier)", "caller": "\(caller)",
                ])
            metrics.answered(route: "authorize", operation: operation, outcome: result.kind, since: start)
            return JSONResponse.make(text: result.jsonText)
        } catch {
            log(error, context, route: "authorize")
            metrics.answered(route: "authorize", operation: operation, outcome: error.code, since: start)
            return error.response
        }
    }

    /// `POST /v1/interactions/{id}`.
    func resume(_ request: Request, _ context: Context) async -> Response {
        let start = ContinuousClock.now
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
            let adapter = slot.adapter
            let result = await bound(
                await counted("interaction") { await adapter.resume(interaction: id, with: answer) }, to: caller)
            log(result, context, ["route": "interaction", "caller": "\(caller)"])
            metrics.answered(route: "interaction", operation: "resume", outcome: result.kind, since: start)
            return JSONResponse.make(text: result.jsonText)
        } catch {
            log(error, context, route: "interaction")
            metrics.answered(route: "interaction", operation: "resume", outcome: error.code, since: start)
            return error.response
        }
    }

    /// Runs `body` counting its IdP exchanges; an answer that needed none is a cache hit.
    private func counted(
        _ route: String, _ body: () async -> AuthorizationResult
    ) async -> AuthorizationResult {
        let exchanges = IdPExchangeCount()
        let result = await IdPExchangeCount.$current.withValue(exchanges) { await body() }
        metrics.cacheHit(route: route, result: result, exchanges: exchanges)
        return result
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
        guard await owners.hasRoom(for: caller.description) else {
            return .failure(
                AuthorizationFailure(
                    .failed, .tooManyInteractions, "this caller has too many pending interactions; finish one first"))
        }
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
