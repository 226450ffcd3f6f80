import Foundation
import Testing

/// `ssokit demo` as the README's first command runs it: one JSON object per step, exit 0.
@Suite struct DemoCommandEndToEndTests {
    @Test("ssokit demo --json prints the six steps of the contract and exits 0")
    func demoJSON() async throws {
        let result = try await ProcessRunner.run(MockProvider.ssokit, ["demo", "--json"], timeout: 300)
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 6, "\(result.stdout)")
        for line in lines {
            let object = try #require(
                (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any], "\(line)")
            #expect(object["ok"] as? Bool == true, "\(line)")
            #expect(object["step"] is String && object["ms"] is Int && object["detail"] is String, "\(line)")
        }
        // No secret of the run is printed: the demo user's password never reaches stdout.
        #expect(!result.stdout.contains("password:"))
    }
}
