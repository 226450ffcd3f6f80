/// Reading the files a payload names through the host's reader, with paths resolved against the profile's folder.
struct ProfileFileContext {
    let directory: String?
    let reader: (any ProfileFileReader)?
    let maximumBytes: Int

    /// The contents of the file named by `key`, or nil with a problem logged.
    func contents(of key: String, in fields: PayloadFields) -> [UInt8]? {
        guard let written = fields.string(key) else { return nil }
        let path = ProfilePath.resolve(written, against: directory)
        guard let reader else {
            fields.problem(key, .unreadableFile, "\(key) names \(path), but no file reader was given")
            return nil
        }
        do {
            return try reader.contents(ofFile: path, maximumBytes: maximumBytes)
        } catch {
            fields.problem(
                key, .unreadableFile, "cannot read \(path) (missing, unreadable or over \(maximumBytes) bytes)")
            return nil
        }
    }

    /// The file as UTF-8 text, or nil with a problem logged.
    func text(of key: String, in fields: PayloadFields) -> String? {
        guard let bytes = contents(of: key, in: fields) else { return nil }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            fields.problem(key, .invalidFile, "the file \(key) names is not UTF-8 text")
            return nil
        }
        return text
    }
}
