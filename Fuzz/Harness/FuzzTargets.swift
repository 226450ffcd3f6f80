extension FuzzTarget {
    /// Every target, in the order `Fuzz/run.sh` runs them. Adding a target: write its `FuzzTarget` in a file of
    /// its own and list it here (Fuzz/README.md, "Adding a target").
    public static let all: [FuzzTarget] = [
        .json, .jws, .idToken, .samlResponse, .samlSealedResponse, .redirectQuery, .redirectInflate, .autoPostForm,
        .pemKeys, .profile,
    ]

    /// The target called `name`.
    public static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }
}
