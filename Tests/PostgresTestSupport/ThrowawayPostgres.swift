import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starts a throwaway PostgreSQL server for this test process: `initdb` into a fresh directory under /tmp, then
/// `pg_ctl start` listening on 127.0.0.1 at a free port (trust authentication, superuser `ssokit`).
///
/// A small shell watcher runs the server: it starts it, marks the directory `ready` (or `failed`), and once this
/// process has exited — normally or not — stops the server and removes the directory. `initdb` refuses to run as
/// root, so as root the server runs as the `postgres` user through `runuser`.
public enum ThrowawayPostgres {
    /// Starts the server; returns the URL of its `postgres` database.
    static func start() async throws -> String {
        let binaries = try binaryDirectory()
        let runAs = try runAsPrefix()
        var lastError = ""
        for _ in 0..<3 {
            let port = try freePort()
            let directory = "/tmp/ssokit-pg-\(UUID().uuidString.prefix(8).lowercased())"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
            if let owner = runAs?.owner { chown(directory, owner.uid, owner.gid) }
            try launchWatcher(directory: directory, binaries: binaries, port: port, runAs: runAs?.command)
            let deadline = Date().addingTimeInterval(90)
            while Date() < deadline {
                if FileManager.default.fileExists(atPath: directory + "/ready") {
                    return "postgres://ssokit@127.0.0.1:\(port)/postgres"
                }
                if FileManager.default.fileExists(atPath: directory + "/failed") { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            lastError = ["initdb.log", "pg_ctl.log", "server.log"].compactMap { log in
                (try? String(contentsOfFile: directory + "/" + log, encoding: .utf8)).map {
                    "\(log): \($0.suffix(600))"
                }
            }.joined(separator: "\n")
            if lastError.isEmpty { lastError = "the server did not start within 90 s" }
        }
        throw TestServerUnavailable(message: lastError)
    }

    /// The directory holding `initdb` and `pg_ctl`: from PATH, else the newest /usr/lib/postgresql/*/bin.
    static func binaryDirectory() throws -> String {
        let fileManager = FileManager.default
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        var candidates = path.split(separator: ":").map(String.init)
        let versions = (try? fileManager.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        candidates += versions.sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }.map { "/usr/lib/postgresql/\($0)/bin" }
        for directory in candidates where fileManager.isExecutableFile(atPath: directory + "/initdb") {
            let initdb = URL(fileURLWithPath: directory + "/initdb").resolvingSymlinksInPath()
            let resolved = initdb.deletingLastPathComponent().path
            if fileManager.isExecutableFile(atPath: resolved + "/pg_ctl") { return resolved }
        }
        throw TestServerUnavailable(message: "initdb and pg_ctl are neither on PATH nor in /usr/lib/postgresql/*/bin")
    }

    /// As root: the command prefix that runs as `postgres` and that user's IDs; nil otherwise.
    static func runAsPrefix() throws -> (command: String, owner: (uid: uid_t, gid: gid_t))? {
        guard getuid() == 0 else { return nil }
        guard let user = getpwnam("postgres") else {
            throw TestServerUnavailable(message: "running as root, and there is no postgres user to run initdb as")
        }
        let owner = (uid: user.pointee.pw_uid, gid: user.pointee.pw_gid)
        for runuser in ["/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser"]
        where FileManager.default.isExecutableFile(atPath: runuser) {
            return ("\(runuser) -u postgres --", owner)
        }
        throw TestServerUnavailable(message: "running as root, and runuser is missing to run initdb as postgres")
    }

    /// A TCP port on 127.0.0.1 that nothing listens on right now.
    public static func freePort() throws -> Int {
        let (descriptor, port) = try boundLoopbackSocket()
        close(descriptor)
        return port
    }

    /// A TCP socket bound to 127.0.0.1 on a port the system picked, and that port; the caller closes it.
    public static func boundLoopbackSocket() throws -> (descriptor: Int32, port: Int) {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw TestServerUnavailable(message: "socket() failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        #if canImport(Darwin)
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw TestServerUnavailable(message: "no free port on 127.0.0.1")
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }

    private static func launchWatcher(directory: String, binaries: String, port: Int, runAs: String?) throws {
        let script = """
            run() { $RUN_AS "$@"; }
            if run "$BIN/initdb" -D "$DIR/data" -U ssokit -A trust -E UTF8 --no-sync > "$DIR/initdb.log" 2>&1 &&
               run "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -t 60 \
                   -o "-k $DIR -h 127.0.0.1 -p $PORT" start > "$DIR/pg_ctl.log" 2>&1; then
                touch "$DIR/ready"
            else
                touch "$DIR/failed"
            fi
            while kill -0 "$PARENT" 2> /dev/null; do sleep 1; done
            run "$BIN/pg_ctl" -D "$DIR/data" -m immediate stop > /dev/null 2>&1
            rm -rf "$DIR"
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        var environment = ProcessInfo.processInfo.environment
        environment["RUN_AS"] = runAs ?? ""
        environment["BIN"] = binaries
        environment["DIR"] = directory
        environment["PORT"] = String(port)
        environment["PARENT"] = String(getpid())
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }
}
