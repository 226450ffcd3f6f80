import SSOKitSAML
import Testing

@Suite struct SAMLErrorTests {
    @Test func codesAreUniqueSnakeCase() {
        let names = SAMLError.Code.all.map(\.description)
        #expect(Set(names).count == names.count)
        for name in names {
            #expect(name.allSatisfy { $0.isLowercase || $0 == "_" }, "\(name)")
        }
    }
}
