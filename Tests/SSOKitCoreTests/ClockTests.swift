import Foundation
import SSOKitCore
import Testing

@Suite("Clocks")
struct ClockTests {
    @Test("FixedClock(unixSeconds:) reports exactly that instant", arguments: [Int64(0), 1_767_225_600, -86_400])
    func fixedUnixSeconds(_ seconds: Int64) {
        let clock = FixedClock(unixSeconds: seconds)
        #expect(clock.now.timeIntervalSince1970 == TimeInterval(seconds))
    }

    @Test("FixedClock never moves")
    func fixedNeverMoves() {
        let instant = Date(timeIntervalSince1970: 1_767_225_600.5)
        let clock = FixedClock(instant)
        let readings = (0..<100).map { _ in clock.now }
        #expect(readings.allSatisfy { $0 == instant })
    }

    @Test("FixedClock can be reset to another instant")
    func fixedIsMutable() {
        var clock = FixedClock(unixSeconds: 100)
        clock.now = Date(timeIntervalSince1970: 200)
        #expect(clock.now.timeIntervalSince1970 == 200)
    }

    @Test("FixedClock works through the SSOKitClock existential")
    func fixedAsExistential() {
        let clock: any SSOKitClock = FixedClock(unixSeconds: 42)
        #expect(clock.now == Date(timeIntervalSince1970: 42))
    }

    @Test("SystemClock reads the wall clock")
    func systemClock() {
        let before = Date()
        let now = SystemClock().now
        let after = Date()
        #expect(before <= now)
        #expect(now <= after)
    }
}
