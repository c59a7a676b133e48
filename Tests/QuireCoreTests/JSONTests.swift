import Foundation
import Testing
import QuireCore

/// `JSON`: the one reader and writer behind the import/export, the language server and `--json`.
@Suite struct JSONTests {
    static func parse(_ text: String) throws(JSONSyntaxError) -> JSON {
        try JSON.parse(Array(text.utf8))
    }

    static func keys(_ value: JSON?) -> [String] {
        value?.members?.map(\.key) ?? []
    }

    // MARK: reading

    @Test func keepsKeyOrderAndTheLastValueOfARepeatedKeyAtItsFirstPlace() throws {
        let value = try Self.parse(#"{"z": 1, "a": [true, null, 1.5, -2e3, "x"], "m": {"k": "v", "b": 2}, "z": 2}"#)
        #expect(Self.keys(value) == ["z", "a", "m"])
        #expect(Self.keys(value["m"]) == ["k", "b"])
        #expect(value["z"] == .int(2))
        #expect(value["m"]?["k"]?.string == "v")
        #expect(value["a"]?[0]?.bool == true)
        #expect(value["a"]?[1] == .null)
        #expect(value["a"]?[9] == nil)
        guard case .double(-2000)? = value["a"]?[3] else {
            Issue.record("-2e3 is not the double -2000: \(String(describing: value["a"]?[3]))")
            return
        }
    }

    @Test func integersStayExactAndOtherNumbersAreDoubles() throws {
        let value = try Self.parse("[0, -0, 9007199254740993, \(Int.max), \(Int.min), 3.0, 1e2, 99999999999999999999, -1.25E-3]")
        guard case let .array(items) = value, items.count == 9 else {
            Issue.record("not nine numbers: \(value)")
            return
        }
        #expect(items[0].int == 0)
        // Beyond a double's 53 bits: an Int keeps every digit.
        if case let .int(number) = items[2] { #expect(number == 9_007_199_254_740_993) } else { Issue.record("not an int: \(items[2])") }
        if case let .int(number) = items[3] { #expect(number == Int.max) } else { Issue.record("not an int: \(items[3])") }
        if case let .int(number) = items[4] { #expect(number == Int.min) } else { Issue.record("not an int: \(items[4])") }
        // Written with a fraction or an exponent, or too large for an Int: a double.
        for (index, expected) in [(5, 3.0), (6, 100.0), (7, 1e20), (8, -0.00125)] {
            if case let .double(number) = items[index] { #expect(number == expected) } else { Issue.record("not a double: \(items[index])") }
        }
        // The accessor takes a whole double, as a position a client wrote as 3.0.
        #expect(items[5].int == 3)
        #expect(JSON.double(0.5).int == nil)
    }

    @Test func readsEveryEscapeAndSurrogatePairs() throws {
        let value = try Self.parse(#""\"\\\/\b\f\n\r\t\u00e9\u00E9\u65e5\ud83d\ude00\uD83D\uDE00""#)
        #expect(value.string == "\"\\/\u{08}\u{0C}\n\r\té\u{E9}日😀😀")
    }

    @Test func loneSurrogatesAndInvalidUTF8BecomeReplacementCharacters() throws {
        #expect(try Self.parse(#""a\ud800b""#).string == "a\u{FFFD}b")
        #expect(try Self.parse(#""a\udc00b""#).string == "a\u{FFFD}b")
        // A high surrogate followed by another escape: the second is read on its own.
        #expect(try Self.parse(#""\ud800\u0041""#).string == "\u{FFFD}A")
        #expect(try Self.parse(#""\ud800\ud83d\ude00""#).string == "\u{FFFD}😀")
        #expect(try JSON.parse([0x22, 0x61, 0xFF, 0xC3, 0x22]).string == "a\u{FFFD}\u{FFFD}")
    }

    @Test func skipsAByteOrderMarkAndSurroundingWhitespace() throws {
        #expect(try JSON.parse([0xEF, 0xBB, 0xBF] + Array(" \t\r\n{\"a\": 1}\n ".utf8)) == .object([("a", .int(1))]))
        #expect(try JSON.parse(Data("true".utf8)) == .bool(true))
        #expect(try JSON.parse(Array("[1]\n".utf8)[...]) == .array([.int(1)]))
    }

    @Test func refusesMalformedTextSayingWhatAndWhere() {
        // (text, reason, line, byte offset)
        let cases: [(String, String, Int, Int)] = [
            ("", "unexpected end of the text", 1, 0),
            ("   ", "unexpected end of the text", 1, 3),
            ("[1,\n2,]", "unexpected character", 2, 6),
            ("{\"a\" 1}", "expected ':'", 1, 5),
            ("{\"a\": 1 \"b\": 2}", "expected ',' or '}'", 1, 8),
            ("{\"a\": 1,}", "expected a key in quotes", 1, 8),
            ("{1: 2}", "expected a key in quotes", 1, 1),
            ("[1 2]", "expected ',' or ']'", 1, 3),
            ("[1,\n2", "expected ',' or ']'", 2, 5),
            ("{\"a\":", "unexpected end of the text", 1, 5),
            ("[\"a\u{01}\"]", "control character in a string", 1, 3),
            ("\"a\nb\"", "control character in a string", 1, 2),
            ("\"abc", "unfinished string", 1, 4),
            ("\"\\", "unfinished escape", 1, 2),
            ("\"\\x\"", "unknown escape", 1, 2),
            ("\"\\u12\"", "expected four hex digits after \\u", 1, 3),
            ("\"\\u+123\"", "expected four hex digits after \\u", 1, 3),
            ("01x", "unexpected text after the value", 1, 2),
            ("[1] 2", "unexpected text after the value", 1, 4),
            ("-", "expected a digit", 1, 1),
            ("1.", "expected a digit after '.'", 1, 2),
            ("1e+", "expected a digit in the exponent", 1, 3),
            (".5", "unexpected character", 1, 0),
            ("tru", "unexpected character", 1, 0),
            ("nul", "unexpected character", 1, 0),
            ("True", "unexpected character", 1, 0),
            ("{\n\"a\": [\n1,\n}", "unexpected character", 4, 12),
        ]
        for (text, reason, line, offset) in cases {
            do {
                let value = try Self.parse(text)
                Issue.record("\(text.debugDescription) was read as \(value)")
            } catch {
                #expect(error == JSONSyntaxError(reason: reason, offset: offset, line: line), "\(text.debugDescription)")
                #expect(error.description == "line \(line): \(reason)")
            }
        }
    }

    @Test func nestingIsLimitedAndDeepTextNeverCrashes() throws {
        let deepest = String(repeating: "[", count: JSON.maximumDepth) + "1" + String(repeating: "]", count: JSON.maximumDepth)
        var value = try Self.parse(deepest)
        for _ in 0..<JSON.maximumDepth { value = value[0] ?? .null }
        #expect(value == .int(1))

        let objects = String(repeating: "{\"a\":", count: JSON.maximumDepth) + "{}" + String(repeating: "}", count: JSON.maximumDepth)
        #expect(throws: JSONSyntaxError(reason: "nested more than 256 levels", offset: 5 * JSON.maximumDepth, line: 1)) {
            try Self.parse(objects)
        }
        for text in [String(repeating: "[", count: JSON.maximumDepth + 1) + String(repeating: "]", count: JSON.maximumDepth + 1),
                     String(repeating: "[", count: 200_000), String(repeating: "[{\"k\":", count: 100_000)] {
            #expect(throws: JSONSyntaxError.self) { try Self.parse(text) }
        }
    }

    // MARK: writing

    @Test func escapesStringsMinimally() {
        let text = "q\"b\\s/n\nr\rt\tc\u{01}\u{1F}\u{7F}é日😀"
        #expect(JSON.string(text).rendered(.compact) == #""q\"b\\s/n\nr\rt\tc\u0001\u001f"# + "\u{7F}é日😀\"")
        #expect(JSON.object([("k\"\n", .string(""))]).rendered(.compact) == #"{"k\"\n":""}"#)
    }

    @Test func writesCompactAndIndentedText() {
        let value = JSON.object([("a", .array([.int(1), .double(2.5), .null])), ("b", .object([])), ("c", .array([])),
                                 ("d", .object([("e", .bool(true)), ("f", .bool(false))]))])
        #expect(value.rendered(.compact) == #"{"a":[1,2.5,null],"b":{},"c":[],"d":{"e":true,"f":false}}"#)
        #expect(value.rendered(JSON.Style(indent: 2)) == """
        {
          "a": [
            1,
            2.5,
            null
          ],
          "b": {},
          "c": [],
          "d": {
            "e": true,
            "f": false
          }
        }
        """)
        #expect(JSON.array([.int(1)]).rendered(JSON.Style(indent: 4)) == "[\n    1\n]")
        #expect(value.encoded(.compact) == Array(value.rendered(.compact).utf8))
    }

    @Test func doublesAreWrittenAsAskedAndNonFiniteOnesAsNull() {
        let numbers = JSON.array([.double(3), .double(-0.5), .double(1e20), .double(123456789012345), .double(.infinity), .double(.nan)])
        #expect(numbers.rendered(.compact) == "[3.0,-0.5,1e+20,123456789012345.0,null,null]")
        #expect(numbers.rendered(JSON.Style(wholeDoublesAsIntegers: true)) == "[3,-0.5,1e+20,123456789012345,null,null]")
        #expect(JSON.double(1e15).rendered(JSON.Style(wholeDoublesAsIntegers: true)) == "1000000000000000.0")
    }

    @Test func optionalConveniencesWriteNullAndLeaveNilMembersOut() {
        let missing: String? = nil
        #expect(JSON.string(missing) == .null)
        #expect(JSON.int(Int?.none) == .null)
        #expect(JSON.int(Int?.some(4)) == .int(4))
        let value = JSON.object(["a": .int(1), "gone": nil, "b": .string("x")])
        #expect(value.rendered(.compact) == #"{"a":1,"b":"x"}"#)
    }

    // MARK: round trips and equality

    @Test func roundTripsKeepValuesOrderAndNumberKinds() throws {
        let text = #"{"z":[1,-2.5,3.0,true,false,null,"x\"\\\n\u0001é😀"],"a":{},"m":{"y":1,"b":[[]]},"big":9223372036854775807}"#
        let value = try Self.parse(text)
        #expect(value.rendered(.compact) == text)
        let again = try JSON.parse(value.encoded(.compact))
        #expect(again == value)
        #expect(Self.keys(again) == ["z", "a", "m", "big"])
        #expect(Self.keys(again["m"]) == ["y", "b"])
        if case .double(3.0)? = again["z"]?[2] {} else { Issue.record("3.0 did not stay a double") }
        let indented = try JSON.parse(value.encoded(JSON.Style(indent: 2)))
        #expect(indented == value)
        #expect(Self.keys(indented) == ["z", "a", "m", "big"])
    }

    @Test func equalityIsJSONsObjectsAsKeySetsNumbersByValue() {
        #expect(JSON.object([("a", .int(1)), ("b", .int(2))]) == .object([("b", .int(2)), ("a", .int(1))]))
        #expect(JSON.object([("a", .int(1))]) != .object([("a", .int(1)), ("b", .int(2))]))
        #expect(JSON.object([("a", .int(1))]) != .object([("b", .int(1))]))
        #expect(JSON.int(2) == .double(2))
        #expect(JSON.int(2) != .double(2.5))
        #expect(JSON.array([.int(1), .int(2)]) != .array([.int(2), .int(1)]))
        #expect(JSON.string("1") != .int(1))
        #expect(JSON.null != .bool(false))
    }

    // MARK: front-matter values

    /// A front-matter value and JSON convert both ways with key order, nesting and numbers
    /// kept; a date is written as the caller says (as written, or ISO 8601).
    @Test func frontMatterValuesConvertBothWays() {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let value = FrontMatterValue.map([
            FrontMatterEntry(key: "zeta", value: .list([.int(1), .float(2.5), .string("three"), .null])),
            FrontMatterEntry(key: "alpha", value: .map([FrontMatterEntry(key: "on", value: .bool(true))])),
            FrontMatterEntry(key: "when", value: .date(date, text: "2023-11-14 22:13")),
        ])
        let asWritten = value.json { $1 }
        #expect(asWritten.rendered(.compact)
            == #"{"zeta":[1,2.5,"three",null],"alpha":{"on":true},"when":"2023-11-14 22:13"}"#)
        let stamped = value.json { date, _ in "\(Int(date.timeIntervalSince1970))" }
        #expect(stamped["when"] == .string("1700000000"))
        // Back: everything but the date (text in JSON) is the value it was.
        let back = FrontMatterValue(json: asWritten)
        guard case let .map(entries) = back else {
            Issue.record("not a map: \(back)")
            return
        }
        #expect(entries.map(\.key) == ["zeta", "alpha", "when"])
        #expect(entries[0].value == .list([.int(1), .float(2.5), .string("three"), .null]))
        #expect(entries[1].value == .map([FrontMatterEntry(key: "on", value: .bool(true))]))
        #expect(entries[2].value == .string("2023-11-14 22:13"))
    }

    @Test func aValueEncodedAtADepthIsWhatItsContainerWritesThere() {
        let style = JSON.Style(indent: 2, wholeDoublesAsIntegers: true)
        let element = JSON.object([("path", .string("a\n\"b")), ("list", .array([.int(1), .array([]), .object([])])), ("x", .null)])
        let whole = JSON.object([("nodes", .array([element, .int(2), element]))])
        let nested = element.encoded(style, level: 2)
        var pieced = Array("{\n  \"nodes\": [\n    ".utf8) + nested + Array(",\n    2,\n    ".utf8) + nested
        pieced += Array("\n  ]\n}".utf8)
        #expect(String(decoding: pieced, as: UTF8.self) == whole.rendered(style))
        #expect(element.encoded(style, level: 0) == element.encoded(style))
    }
}
