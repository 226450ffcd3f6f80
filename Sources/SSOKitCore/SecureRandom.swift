/// Random bytes from the system's cryptographically secure generator (`SystemRandomNumberGenerator`: getrandom(2)
/// on Linux, arc4random on Apple platforms), for salts, keys, nonces, state values and identifiers.
package enum SecureRandom {
    /// `count` random bytes.
    package static func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
