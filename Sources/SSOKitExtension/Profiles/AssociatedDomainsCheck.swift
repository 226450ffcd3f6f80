import HTTPTypes
import SSOKitCore
import SSOKitOIDC

/// Checks what the OS checks before it routes a Redirect payload's URLs to an extension: each host serves
/// `/.well-known/apple-app-site-association` whose `authsrv.apps` lists `TEAMID.ExtensionIdentifier`.
///
/// The document is fetched over https (plain http only when the payload's URL is http on a loopback host, for
/// tests), without following redirects, as the OS does. Credential payloads need no associated domains.
public struct AssociatedDomainsCheck: Sendable {
    /// The verdict for one payload and host.
    public struct Result: Sendable, Hashable {
        /// The payload's identifier.
        public var payload: String
        /// The host (with its port when not the default) whose document was checked.
        public var host: String
        /// The document's URL.
        public var url: String
        /// `TEAMID.ExtensionIdentifier`, when the payload has a TeamIdentifier.
        public var applicationIdentifier: String?
        /// Why the check failed; nil when the document lists the extension.
        public var problem: ProfileProblem?
        /// Whether the document lists the extension.
        public var passed: Bool { problem == nil }
    }

    private let transport: any HTTPTransport
    /// The largest document accepted (default 128 KiB, what the OS accepts).
    public var maximumBytes: Int

    /// Creates a check that fetches with `transport`.
    public init(transport: any HTTPTransport, maximumBytes: Int = 128 << 10) {
        self.transport = transport
        self.maximumBytes = maximumBytes
    }

    /// Checks every Redirect payload of `payloads` once per host, fetching each host's document once.
    public func check(_ payloads: [SSOPayload]) async -> [Result] {
        var documents: [RequestOrigin: Document] = [:]
        var results: [Result] = []
        for payload in payloads where payload.type == .redirect {
            var seen: Set<RequestOrigin> = []
            for prefix in payload.urls {
                let origin = Self.documentOrigin(of: prefix.origin)
                guard seen.insert(origin).inserted else { continue }
                let document: Document
                if let known = documents[origin] {
                    document = known
                } else {
                    document = await fetch(origin)
                    documents[origin] = document
                }
                results.append(Self.verdict(for: payload, at: origin, document: document))
            }
        }
        return results
    }

    /// https on the same host and port, or http when the prefix is http on a loopback host.
    static func documentOrigin(of origin: RequestOrigin) -> RequestOrigin {
        if origin.scheme == "http" && EndpointSecurity.isLoopback(host: origin.host) { return origin }
        let port = origin.scheme == "https" && origin.port != 443 ? origin.port : nil
        return RequestOrigin(scheme: "https", normalizedHost: origin.host, port: port)
    }

    static let path = "/.well-known/apple-app-site-association"

    /// The fetched `authsrv.apps`, or why there is none.
    enum Document {
        case apps(Set<String>)
        case failure(String)
    }

    private func fetch(_ origin: RequestOrigin) async -> Document {
        var request = HTTPRequest(method: .get, scheme: origin.scheme, authority: origin.authority, path: Self.path)
        request.headerFields[.accept] = "application/json"
        let response: HTTPTransportResponse
        do {
            response = try await transport.send(request, body: nil)
        } catch let error as HTTPTransportError {
            return .failure("could not fetch \(origin.authority)\(Self.path): \(error.code)")
        } catch {
            return .failure("could not fetch \(origin.authority)\(Self.path)")
        }
        let status = response.response.status.code
        guard status == 200 else {
            return .failure("\(origin.authority)\(Self.path) answered HTTP \(status) (redirects are not followed)")
        }
        guard response.body.count <= maximumBytes else {
            return .failure("\(origin.authority)\(Self.path) is larger than \(maximumBytes) bytes")
        }
        guard let document = try? JSONParser().parse(response.body), let root = document.objectValue,
            let apps = root["authsrv"]?["apps"]?.arrayValue
        else { return .failure("\(origin.authority)\(Self.path) has no authsrv.apps array") }
        return .apps(Set(apps.compactMap(\.stringValue)))
    }

    private static func verdict(for payload: SSOPayload, at origin: RequestOrigin, document: Document) -> Result {
        let url = "\(origin.scheme)://\(origin.authority)\(path)"
        var result = Result(
            payload: payload.identifier, host: origin.authority, url: url,
            applicationIdentifier: payload.applicationIdentifier, problem: nil)
        guard let applicationIdentifier = payload.applicationIdentifier else {
            result.problem = ProfileProblem(
                payload: payload.identifier, key: "TeamIdentifier", code: .missingKey,
                message: "TeamIdentifier is needed to check associated domains")
            return result
        }
        switch document {
        case .failure(let message):
            result.problem = ProfileProblem(
                payload: payload.identifier, key: "URLs", code: .associatedDomainMismatch, message: message)
        case .apps(let apps) where !apps.contains(applicationIdentifier):
            result.problem = ProfileProblem(
                payload: payload.identifier, key: "URLs", code: .associatedDomainMismatch,
                message: "\(url) does not list \(applicationIdentifier) in authsrv.apps")
        case .apps:
            break
        }
        return result
    }
}
