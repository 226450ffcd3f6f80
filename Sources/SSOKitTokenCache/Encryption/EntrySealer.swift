import Crypto
import Foundation
import SSOKitStore

/// Seals stored values with AES-GCM. The associated data binds each ciphertext to what it is stored under, so a
/// row copied under another key (another app's entry, say) fails to open.
struct EntrySealer: Sendable {
    let key: CacheEncryptionKey

    static let version = "ssokit-token-cache-v1"

    func sealBytes(_ plaintext: [UInt8], boundTo context: String) throws(TokenCacheError) -> [UInt8] {
        do {
            let box = try AES.GCM.seal(plaintext, using: key.key, authenticating: associatedData(context))
            guard let combined = box.combined else { throw TokenCacheError(.invalidKey, "sealing failed") }
            return Array(combined)
        } catch let error as TokenCacheError {
            throw error
        } catch {
            throw TokenCacheError(.invalidKey, "sealing failed")
        }
    }

    func openBytes(_ sealed: [UInt8], boundTo context: String) throws(TokenCacheError) -> [UInt8] {
        do {
            let box = try AES.GCM.SealedBox(combined: sealed)
            return Array(try AES.GCM.open(box, using: key.key, authenticating: associatedData(context)))
        } catch {
            throw TokenCacheError(.entryUnreadable, "the entry does not decrypt under this key and place")
        }
    }

    func seal<T: Encodable>(_ value: T, boundTo context: String) throws(TokenCacheError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        do {
            return try sealBytes(Array(encoder.encode(value)), boundTo: context)
        } catch let error as TokenCacheError {
            throw error
        } catch {
            throw TokenCacheError(.entryUnreadable, "the entry could not be encoded")
        }
    }

    func open<T: Decodable>(_ type: T.Type, from sealed: [UInt8], boundTo context: String) throws(TokenCacheError)
        -> T
    {
        let plaintext = try openBytes(sealed, boundTo: context)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        do {
            return try decoder.decode(type, from: Data(plaintext))
        } catch {
            throw TokenCacheError(.entryUnreadable, "the entry decrypts but does not decode")
        }
    }

    private func associatedData(_ context: String) -> [UInt8] { Array("\(Self.version)\u{0}\(context)".utf8) }
}
