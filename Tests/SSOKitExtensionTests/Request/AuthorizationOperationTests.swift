import SSOKitExtension
import Testing

@Suite struct AuthorizationOperationTests {
    @Test(arguments: [
        ("login", AuthorizationOperation.login), ("operationLogin", .login), ("ASAuthorizationOperationLogin", .login),
        ("ASAuthorization.OpenIDOperation.operationRefresh", .refresh), ("LOGOUT", .logout),
        ("ASAuthorizationOperationImplicit", .implicit),
        ("ASAuthorizationProviderAuthorizationOperationConfigurationRemoved", .configurationRemoved),
        ("configurationRemoved", .configurationRemoved), ("directRequest", .directRequest), ("", .none),
        ("none", .none), (" null ", .none),
    ])
    func applesSpellingsAreRead(text: String, expected: AuthorizationOperation) {
        #expect(AuthorizationOperation(parsing: text) == expected)
    }

    @Test func customOperationsAreKeptAsGiven() {
        let operation = AuthorizationOperation(parsing: "com.example.changePassword")
        #expect(operation.rawValue == "com.example.changePassword")
        #expect(operation != .login)
        #expect(AuthorizationOperation.none.description == "none")
    }
}
