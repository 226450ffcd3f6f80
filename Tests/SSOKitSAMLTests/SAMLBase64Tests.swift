import Foundation
import Testing

@testable import SSOKitSAML

@Suite("SAMLBase64 against Foundation's decoder")
struct SAMLBase64Tests {
    @Test("every length 1...300 with line breaks decodes to the original bytes")
    func roundTrip() throws {
        var generator = SystemRandomNumberGenerator()
        for length in 1...300 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let encoded = Data(bytes).base64EncodedString(options: [
                .lineLength64Characters, .endLineWithCarriageReturn,
            ])
            #expect(try SAMLBase64.decode(" \(encoded)\n", limit: 1 << 20) == bytes)
        }
    }

    @Test("the decoded-size limit is enforced")
    func limit() {
        let encoded = Data(repeating: 0x41, count: 100).base64EncodedString()
        #expect(throws: SAMLError(.tooLarge, "")) { try SAMLBase64.decode(encoded, limit: 99) }
    }
}
