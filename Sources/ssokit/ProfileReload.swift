import Logging
import SSOKitExtension
import SSOKitHummingbird
import SSOKitProxy

/// `ssokit serve`'s SIGHUP: the profile is read and checked again; only a valid one replaces the running adapter
/// (payloads it drops get the system's `configurationRemoved`); an invalid one, or one whose Redirect URLs the
/// running proxy cannot intercept, is logged and the old one stays.
enum ProfileReload {
    static func run(slot: AdapterSlot, logger: Logger, load: @Sendable () throws -> RedirectExtension) async {
        let replacement: RedirectExtension
        do {
            replacement = try load()
        } catch let error as ProfileError {
            logger.error(
                "profile reload refused; the running profile stays",
                metadata: ["error": "\(error.code)", "reason": "\(error.reason)"])
            return
        } catch let error as ProxyError {
            logger.error(
                "profile reload refused; the running profile stays",
                metadata: ["error": "\(error.code)", "reason": "\(error.reason)"])
            return
        } catch {
            logger.error(
                "profile reload refused; the running profile stays", metadata: ["error": "\(type(of: error))"])
            return
        }
        let removals = await slot.replace(with: replacement)
        logger.info("profile reloaded", metadata: ["payloads": "\(replacement.catalog.payloads.count)"])
        for removal in removals {
            logger.notice(
                "configuration removed",
                metadata: ["payload": "\(removal.payload)", "result": "\(removal.result.kind)"])
        }
    }
}
