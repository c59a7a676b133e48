import Testing
@testable import QuireLSP

@Suite struct JSONTests {
    @Test func roundTripsNestedValues() throws {
        let text = #"{"a":[1,-2.5,true,false,null,"x\"\\\n\u00e9\ud83d\ude00"],"b":{}}"#
        let value = try JSONParser.parse(Array(text.utf8))
        #expect(value["a"]?[0]?.int == 1)
        #expect(value["a"]?[5]?.string == "x\"\\\né😀")
        #expect(try JSONParser.parse(value.encoded()) == value)
    }

    @Test func refusesMalformedText() {
        for bad in ["{", "[1,]", "{\"a\" 1}", "\"\\ud800\"", "01x", "tru", String(repeating: "[", count: 1000)] {
            #expect(throws: JSONParseError.self) { try JSONParser.parse(Array(bad.utf8)) }
        }
    }
}
