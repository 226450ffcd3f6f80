import Foundation

/// Keeps a PostgreSQL password off the command line: the URL may come from `$SSOKIT_POSTGRES_URL`, and a URL
/// without a password takes one from the password file, as libpq does (`$PGPASSFILE`, else `~/.pgpass`: lines
/// `host:port:database:user:password`, `*` matching anything, `\:` and `\\` escaped). The password file must be
/// private to the user (``PrivateFile``).
enum PostgresPassword {
    /// `url` with the password filled in from the password file when it names none and a line matches.
    static func completing(_ url: String) throws -> String {
        guard var components = URLComponents(string: url), components.password == nil, let user = components.user,
            let host = components.host
        else { return url }
        let environment = ProcessInfo.processInfo.environment
        let path =
            environment["PGPASSFILE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"].map { $0 + "/.pgpass" } ?? "")
        guard !path.isEmpty, let bytes = try PrivateFile.readIfPresent(path) else { return url }
        let database = String(components.path.drop { $0 == "/" })
        let wanted = [
            host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host, String(components.port ?? 5432),
            database.isEmpty ? user : database, user,
        ]
        for line in String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline) {
            guard !line.hasPrefix("#") else { continue }
            let fields = Self.fields(of: line)
            guard fields.count == 5, zip(fields.prefix(4), wanted).allSatisfy({ $0 == "*" || $0 == $1 }) else {
                continue
            }
            components.password = fields[4]
            return components.string ?? url
        }
        return url
    }

    /// The `:`-separated fields of one password-file line, with `\:` and `\\` unescaped.
    private static func fields(of line: Substring) -> [String] {
        var fields = [""]
        var escaped = false
        for character in line {
            if escaped {
                fields[fields.count - 1].append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ":" {
                fields.append("")
            } else {
                fields[fields.count - 1].append(character)
            }
        }
        return fields
    }
}
