import Foundation
import QuireKit
import XCTest

final class JSONReaderTests: XCTestCase {
    func testKeepsKeyOrderTypesAndEscapes() throws {
        let text = #"{"z": 1, "a": [true, null, 1.5, -2e3, "\u00e9\ud83d\ude00\n\"/"], "m": {"k": "v"}, "z": 2}"#
        let value = try JSONReader.parse(Data(text.utf8))
        guard case let .object(pairs) = value else { return XCTFail("not an object") }
        XCTAssertEqual(pairs.map(\.key), ["z", "a", "m"])
        XCTAssertEqual(value["z"], .int(2))
        XCTAssertEqual(value["a"], .array([.bool(true), .null, .double(1.5), .double(-2000), .string("é😀\n\"/")]))
        XCTAssertEqual(value["m"]?["k"], .string("v"))
        // Rendering and reading again gives the same value.
        XCTAssertEqual(try JSONReader.parse(Data(value.rendered().utf8)), value)
    }

    func testRefusesBadTextWithItsLine() {
        for (text, line) in [("[1,\n2,]", 2), ("{\"a\" 1}", 1), ("[\"a\u{01}\"]", 1), ("01x", 1), ("", 1), ("[1] 2", 1),
                             ("\"\\x\"", 1), (String(repeating: "[", count: 300), 1)] {
            XCTAssertThrowsError(try JSONReader.parse(Data(text.utf8)), text) { error in
                XCTAssertEqual((error as? JSONSyntaxError)?.line, line, text)
            }
        }
    }
}
