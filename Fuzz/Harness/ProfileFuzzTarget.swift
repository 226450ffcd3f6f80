import Foundation
import SSOKitCore
import SSOKitExtension

extension FuzzTarget {
    /// The profile reader on any bytes (XML property list, JSON, or CMS SignedData around either), as
    /// `ssokit serve --profile` and `ssokit profile check` reach it; on a profile it accepts, the catalog and its
    /// matching: every Redirect URL prefix a payload declares must match that payload.
    public static let profile = FuzzTarget(
        name: "profile",
        summary:
            "ProfileLoader (plist, JSON, signed CMS); ProfileCatalog; each declared Redirect URL matches its payload",
        body: .sync { input in
            let loader = ProfileLoader(clock: FixedClock(unixSeconds: 1_767_225_600))
            let profile: SSOProfile
            do throws(ProfileError) {
                profile = try loader.load(input)
            } catch {
                return .rejected(error.code.description)
            }
            let catalog: ProfileCatalog
            do throws(ProfileError) {
                catalog = try ProfileCatalog(profiles: [profile])
            } catch {
                return .rejected(error.code.description)
            }
            for payload in profile.payloads {
                for prefix in payload.urls {
                    guard let url = URL(string: prefix.url) else {
                        return .violated("an accepted Redirect URL does not parse as a URL")
                    }
                    guard let match = catalog.match(url) else {
                        return .violated("a declared Redirect URL prefix matches no payload")
                    }
                    guard match.payload === payload else {
                        return .violated("a declared Redirect URL prefix matches another payload")
                    }
                }
            }
            return .accepted
        },
        seeds: { try FuzzFixtures.files(in: "profiles/profiles") })
}
