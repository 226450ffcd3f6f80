import Foundation
// `ssokit-fuzz`: the libFuzzer driver for every target in FuzzHarness (built only with SSOKIT_FUZZ=1; see
// Fuzz/README.md). Its own options start with `--`, which libFuzzer ignores and passes on to the processes it
// forks; everything else is libFuzzer's.
//
//   ssokit-fuzz --list                      (name, sync or async, summary; tab-separated)
//   ssokit-fuzz --target=NAME --write-seeds=DIR
//   ssokit-fuzz --target=NAME --verdicts FILE...   (prints each file's verdict; for triage)
//   ssokit-fuzz --target=NAME [libFuzzer flags] [CORPUS_DIR ...]
import FuzzHarness

@_silgen_name("LLVMFuzzerRunDriver")
private func runLibFuzzer(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// The target libFuzzer's callback runs; set once before libFuzzer starts.
nonisolated(unsafe) private var selected: FuzzTarget?

private func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("ssokit-fuzz: \(message)\n".utf8))
    exit(64)
}

private func option(_ name: String) -> String? {
    CommandLine.arguments.first { $0.hasPrefix("--\(name)=") }.map { String($0.dropFirst(name.count + 3)) }
}

if CommandLine.arguments.contains("--list") {
    for target in FuzzTarget.all { print("\(target.name)\t\(target.isAsync ? "async" : "sync")\t\(target.summary)") }
    exit(0)
}
guard let name = option("target") else { fail("give --target=NAME (--list shows them)") }
guard let target = FuzzTarget.named(name) else { fail("no target \(name) (--list shows them)") }

if let directory = option("write-seeds") {
    do {
        let folder = URL(fileURLWithPath: directory)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // Seeds over 64 KiB (the oversize-document fixture) are left out: libFuzzer's default -max_len is the
        // largest corpus input, and megabyte inputs would slow every mutation.
        let seeds = try target.seeds().filter { $0.value.count <= 64 * 1024 }
        for (file, bytes) in seeds { try Data(bytes).write(to: folder.appendingPathComponent(file)) }
        print("\(name): \(seeds.count) seeds in \(directory)")
        exit(0)
    } catch {
        fail("cannot write the seeds of \(name): \(error)")
    }
}

if CommandLine.arguments.contains("--verdicts") {
    for path in CommandLine.arguments.dropFirst() where !path.hasPrefix("--") {
        guard let bytes = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
        print("\(path)\t\(target.runBlocking(Array(bytes)))")
    }
    exit(0)
}

selected = target
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(
    runLibFuzzer(&argc, &argv) { data, size in
        let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        if case .violated(let reason) = selected?.runBlocking(input) {
            // Reported as a crash: libFuzzer saves the input and stops.
            fatalError("\(selected?.name ?? "?"): \(reason)")
        }
        return 0
    })
