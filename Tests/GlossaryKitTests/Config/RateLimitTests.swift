import Testing

@testable import GlossaryKit

@Suite struct RateLimitTests {
    @Test(arguments: [
        ("450/5m", 450, 300), ("10/1s", 10, 1), ("100/60", 100, 60), ("1/h", 1, 3600), ("2/3h", 2, 10800),
        (" 450 / 5 m ", 450, 300), ("0/5m", 0, 300),
    ])
    func parses(text: String, requests: Int, windowSeconds: Int) {
        #expect(RateLimit(parsing: text) == RateLimit(requests: requests, windowSeconds: windowSeconds))
    }

    @Test(arguments: ["abc", "450", "450/", "/5m", "450/5d", "450/5mm", "-1/5m", "4.5/5m", "1/2/3", "450/m5", ""])
    func rejects(text: String) {
        #expect(RateLimit(parsing: text) == nil)
    }

    @Test func describesItselfInTheLargestWholeUnit() {
        #expect(RateLimit(requests: 450, windowSeconds: 300).description == "450/5m")
        #expect(RateLimit(requests: 5, windowSeconds: 7200).description == "5/2h")
        #expect(RateLimit(requests: 100, windowSeconds: 90).description == "100/90s")
    }
}
