import SSOKitExtension

/// The CLI's ``ProfileFileReader``: the files a profile names, read from disk with the loader's size cap.
struct LocalProfileFiles: ProfileFileReader {
    func contents(ofFile path: String, maximumBytes: Int) throws -> [UInt8] {
        try SAMLFileInput.bytes(path, limit: maximumBytes)
    }
}
