/// Decides what happens to the requests that fall under an intercept prefix; implemented by the host of the proxy
/// (`ssokit serve` hands them to the redirect-extension adapter).
///
/// The proxy calls it once per matching request, possibly concurrently for different connections. It should not
/// throw away the browser's time: the proxy waits for the decision while the browser waits for its answer.
public protocol ProxyInterceptor: Sendable {
    /// The decision for `request`.
    func intercept(_ request: InterceptedRequest) async -> InterceptionDecision
}
