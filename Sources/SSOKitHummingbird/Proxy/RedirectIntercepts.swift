import SSOKitExtension
import SSOKitProxy

/// What the intercepting proxy takes from a profile: the URL prefixes of its Redirect payloads (the browser's
/// requests the OS would hand the extension), and nothing else.
public enum RedirectIntercepts {
    /// The Redirect payloads' URL prefixes as intercept prefixes, in profile order, without repeats.
    public static func prefixes(_ catalog: ProfileCatalog) throws(ProxyError) -> [InterceptPrefix] {
        var prefixes: [InterceptPrefix] = []
        for payload in catalog.payloads where payload.type == .redirect {
            for url in payload.urls {
                let prefix = try InterceptPrefix(url.url)
                if !prefixes.contains(prefix) { prefixes.append(prefix) }
            }
        }
        return prefixes
    }
}
