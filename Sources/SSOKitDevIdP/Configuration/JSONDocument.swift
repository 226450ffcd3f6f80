import Foundation
import SSOKitCore
import SSOKitOIDC

/// A JSON configuration file (users, registrations), read whole under a size cap and parsed strictly.
struct JSONDocument {
    let url: URL
    let root: [String: JSONValue]

    /// Reads `url`; `invalid_configuration` when it is missing, over 1 MiB or not a JSON object.
    init(contentsOf url: URL) throws(DevIdPError) {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw DevIdPError(.invalidConfiguration, "cannot read \(url.path)")
        }
        guard data.count <= 1 << 20 else { throw DevIdPError(.invalidConfiguration, "\(url.path) is over 1 MiB") }
        guard let value = try? JSONParser().parse(Array(data)), let object = value.objectValue else {
            throw DevIdPError(.invalidConfiguration, "\(url.path) is not a JSON object")
        }
        self.url = url
        self.root = object
    }

    /// The objects of the list `name`, or none when the list is absent.
    func objects(_ name: String) throws(DevIdPError) -> [[String: JSONValue]] {
        guard let value = root[name] else { return [] }
        guard let list = value.arrayValue else { throw invalid("\(name) is not a list") }
        var objects: [[String: JSONValue]] = []
        for element in list {
            guard let object = element.objectValue else { throw invalid("an entry of \(name) is not an object") }
            objects.append(object)
        }
        return objects
    }

    /// A path in the file, resolved against the file's folder.
    func resolve(_ path: String) -> URL {
        path.hasPrefix("/") ? URL(fileURLWithPath: path) : url.deletingLastPathComponent().appendingPathComponent(path)
    }

    /// The text of a file the document names.
    func text(at path: String) throws(DevIdPError) -> String {
        let file = resolve(path)
        guard let data = FileManager.default.contents(atPath: file.path), data.count <= 1 << 20,
            let text = String(data: data, encoding: .utf8)
        else { throw invalid("cannot read \(file.path)") }
        return text
    }

    func invalid(_ reason: String) -> DevIdPError {
        DevIdPError(.invalidConfiguration, "\(url.lastPathComponent): \(reason)")
    }
}

extension Dictionary where Key == String, Value == JSONValue {
    /// A string member; `invalid_configuration` when present with another type, or absent and required.
    func string(_ name: String, in document: JSONDocument, required: Bool = false) throws(DevIdPError) -> String? {
        guard let value = self[name] else {
            if required { throw document.invalid("\(name) is missing") }
            return nil
        }
        guard let text = value.stringValue else { throw document.invalid("\(name) is not a string") }
        return text
    }

    /// A list-of-strings member (absent: empty).
    func strings(_ name: String, in document: JSONDocument) throws(DevIdPError) -> [String] {
        guard let value = self[name] else { return [] }
        guard let list = value.arrayValue?.compactMap(\.stringValue), list.count == value.arrayValue?.count else {
            throw document.invalid("\(name) is not a list of strings")
        }
        return list
    }

    /// A boolean member, or `fallback` when absent.
    func bool(_ name: String, in document: JSONDocument, default fallback: Bool) throws(DevIdPError) -> Bool {
        guard let value = self[name] else { return fallback }
        guard let flag = value.boolValue else { throw document.invalid("\(name) is not true or false") }
        return flag
    }
}
