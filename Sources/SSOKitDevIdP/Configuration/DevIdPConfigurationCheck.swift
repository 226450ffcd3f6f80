import Foundation
import SSOKitCore
import SSOKitOIDC

/// The rules a configuration must meet before a provider starts.
enum DevIdPConfigurationCheck {
    static func check(_ configuration: DevIdPConfiguration) throws(DevIdPError) {
        guard EndpointSecurity.isLoopback(host: configuration.host) || configuration.allowRemote else {
            throw DevIdPError(
                .remoteHostNotAllowed, "\(configuration.host) is not a loopback address; allow remote access to use it")
        }
        guard (0...65535).contains(configuration.port) else {
            throw DevIdPError(.invalidConfiguration, "the port must be 0...65535")
        }
        try unique(configuration.users.map(\.username), "username")
        try unique(configuration.clients.map(\.clientID), "client_id")
        try unique(configuration.serviceProviders.map(\.entityID), "SAML entity ID")
        for client in configuration.clients {
            guard !client.clientID.isEmpty, !client.redirectURIs.isEmpty else {
                throw DevIdPError(.invalidConfiguration, "a client needs a client_id and a redirect URI")
            }
            for uri in client.redirectURIs + client.postLogoutRedirectURIs {
                try requireHTTP(uri, "the redirect URI \(uri) of \(client.clientID)")
            }
            switch client.authentication {
            case .clientSecretBasic(let secret), .clientSecretPost(let secret):
                guard !secret.isEmpty else {
                    throw DevIdPError(.invalidConfiguration, "the client \(client.clientID) has an empty secret")
                }
            case .privateKeyJWT(let keys):
                guard !keys.keys.isEmpty else {
                    throw DevIdPError(.invalidConfiguration, "the client \(client.clientID) has no usable key")
                }
            case .none:
                break
            }
        }
        for provider in configuration.serviceProviders {
            guard !provider.entityID.isEmpty, !provider.assertionConsumerServiceURLs.isEmpty else {
                throw DevIdPError(.invalidConfiguration, "a service provider needs an entity ID and an ACS URL")
            }
            for url in provider.assertionConsumerServiceURLs {
                try requireHTTP(url, "the ACS URL \(url) of \(provider.entityID)")
            }
            if let url = provider.singleLogoutServiceURL {
                try requireHTTP(url, "the SLO URL of \(provider.entityID)")
                guard !RegisteredURLMatching.isAnyPortPattern(url) else {
                    throw DevIdPError(
                        .invalidConfiguration, "the SLO URL of \(provider.entityID) needs a port to send to")
                }
            }
            guard !provider.requireSignedRequests || !provider.signingCertificates.isEmpty else {
                throw DevIdPError(
                    .invalidConfiguration, "\(provider.entityID) must sign requests but has no signing certificate")
            }
        }
    }

    private static func unique(_ values: [String], _ what: String) throws(DevIdPError) {
        var seen = Set<String>()
        for value in values where !seen.insert(value).inserted {
            throw DevIdPError(.invalidConfiguration, "the \(what) \(value) is registered twice")
        }
    }

    private static func requireHTTP(_ text: String, _ what: String) throws(DevIdPError) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", components.host?.isEmpty == false, components.fragment == nil,
            components.user == nil
        else { throw DevIdPError(.invalidConfiguration, "\(what) must be an absolute http(s) URL without fragment") }
    }
}
