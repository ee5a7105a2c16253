import Testing

@testable import GlossaryKit

/// Swift Testing has its own `SourceLocation`.
private typealias Location = GlossaryKit.SourceLocation

@Suite struct YAMLNodeReadersTests {
    /// The value of `key: <yaml>` on line 1, so every value starts at column 6.
    private func value(_ yaml: String) throws -> YAMLNode {
        let root = try #require(try YAMLNode.parse("key: \(yaml)\n", file: "t.yml"))
        return try #require(root["key"])
    }

    /// The diagnostic `read` throws, or nil when it succeeds.
    private func failure(_ read: () throws -> Any) -> Diagnostic? {
        do {
            _ = try read()
            return nil
        } catch {
            return error as? Diagnostic
        }
    }

    @Test func stringAcceptsAnyScalar() throws {
        #expect(try value("hello world").string(named: "key") == "hello world")
        #expect(try value("2024").string(named: "key") == "2024")
        #expect(try value("'quoted: yes'").string(named: "key") == "quoted: yes")
    }

    @Test func stringRejectsListsAndNull() throws {
        let list = try value("[a, b]")
        #expect(
            failure { try list.string(named: "title") }?.description
                == "t.yml:1:6: error: 'title' must be a string, found a list [config-type]")
        let empty = try value("~")
        #expect(
            failure { try empty.string(named: "title") }?.message
                == "'title' must be a string, found an empty value")
    }

    @Test(arguments: ["true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"])
    func trueSpellings(spelling: String) throws {
        #expect(try value(spelling).bool(named: "key") == true)
    }

    @Test(arguments: ["false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF"])
    func falseSpellings(spelling: String) throws {
        #expect(try value(spelling).bool(named: "key") == false)
    }

    @Test(arguments: ["y", "n", "1", "0", "tRue", "maybe"])
    func otherWordsAreNotBooleans(spelling: String) throws {
        let node = try value(spelling)
        #expect(
            failure { try node.bool(named: "draft") }?.description
                == "t.yml:1:6: error: 'draft' must be true or false, found '\(spelling)' [config-type]")
    }

    @Test func quotedBooleanIsAStringAndTheMessageSaysSo() throws {
        let node = try value("\"true\"")
        #expect(
            failure { try node.bool(named: "draft") }?.message
                == "'draft' must be true or false, found the string \"true\"")
    }

    @Test func intReadsSignedDecimals() throws {
        #expect(try value("8").int(named: "key") == 8)
        #expect(try value("-3").int(named: "key") == -3)
        #expect(try value("+10").int(named: "key") == 10)
    }

    @Test(arguments: ["eight", "8.5", "0x10", "1e3"])
    func intRejectsNonIntegers(text: String) throws {
        let node = try value(text)
        #expect(
            failure { try node.int(named: "concurrency") }?.description
                == "t.yml:1:6: error: 'concurrency' must be an integer, found '\(text)' [config-type]")
    }

    /// An integer is one however big: past what a number holds, it is out of range (as of every key), not of a wrong type.
    @Test(arguments: ["99999999999999999999999", "-9223372036854775809"])
    func intOutOfAnyRangeIsAValueError(text: String) throws {
        let node = try value(text)
        #expect(
            failure { try node.int(named: "concurrency") }?.description
                == "t.yml:1:6: error: 'concurrency' must be from -9223372036854775808 to 9223372036854775807, found '\(text)' [config-value]")
        #expect(try value("-9223372036854775808").int(named: "key") == Int.min)
    }

    @Test func intRejectsMappingsAndQuotedNumbers() throws {
        let mapping = try value("{a: 1}")
        #expect(
            failure { try mapping.int(named: "weight") }?.message
                == "'weight' must be an integer, found a mapping")
        let quoted = try value("'8'")
        #expect(
            failure { try quoted.int(named: "weight") }?.message
                == "'weight' must be an integer, found the string \"8\"")
    }

    @Test func doubleReadsIntegersDecimalsAndExponents() throws {
        #expect(try value("10").double(named: "key") == 10)
        #expect(try value("2.5").double(named: "key") == 2.5)
        #expect(try value(".5").double(named: "key") == 0.5)
        #expect(try value("1e3").double(named: "key") == 1000)
        #expect(try value("-0.25").double(named: "key") == -0.25)
    }

    @Test(arguments: ["ten", "inf", ".inf", "nan", "1e999", "1.2.3"])
    func doubleRejectsNonNumbers(text: String) throws {
        let node = try value(text)
        #expect(
            failure { try node.double(named: "timeout_seconds") }?.message
                == "'timeout_seconds' must be a number, found '\(text)'")
    }

    @Test func stringListReadsBlockAndFlowLists() throws {
        let root = try #require(try YAMLNode.parse("a:\n  - x\n  - 'y z'\nb: [p, q]\n", file: "t.yml"))
        #expect(try root["a"]?.stringList(named: "a") == ["x", "y z"])
        #expect(try root["b"]?.stringList(named: "b") == ["p", "q"])
    }

    @Test func stringListTakesASingleScalarAsOneItem() throws {
        #expect(try value("swift").stringList(named: "tags") == ["swift"])
        #expect(try value("a, b").stringList(named: "tags") == ["a, b"])
        #expect(try value("~").stringList(named: "tags") == [])
        #expect(try value("[]").stringList(named: "tags") == [])
    }

    @Test func stringListPointsAtTheBadItem() throws {
        let root = try #require(try YAMLNode.parse("tags:\n  - ok\n  - [nested]\n", file: "t.yml"))
        let tags = try #require(root["tags"])
        #expect(
            failure { try tags.stringList(named: "tags") }?.description
                == "t.yml:3:5: error: 'tags' must be a list of strings, found a list as item 2 [config-type]")
        let mapping = try value("{a: b}")
        #expect(
            failure { try mapping.stringList(named: "tags") }?.message
                == "'tags' must be a list of strings, found a mapping")
    }

    @Test(arguments: [
        "2024-03-01", "2024-02-29", "'2024-03-01'", "2024-03-01T09:30:00Z", "2024-03-01T09:30:00.5+01:00",
        "2024-03-01 09:30", "2024-03-01t09:30:00-0500",
    ])
    func validDates(text: String) throws {
        let node = try value(text)
        #expect(try node.date(named: "date") == node.scalarValue)
    }

    @Test(arguments: [
        "2023-02-29", "2024-13-01", "2024-04-31", "2024-00-10", "2024-3-1", "March 1", "2024-03-01T25:00",
        "2024-03-01T09:61",
    ])
    func invalidDates(text: String) throws {
        let node = try value(text)
        #expect(
            failure { try node.date(named: "date") }?.description
                == "t.yml:1:6: error: 'date' must be a date like 2024-03-01 or 2024-03-01T09:30:00Z, found '\(text)' [config-type]"
        )
    }

    @Test func longAndMultilineValuesAreAbbreviatedInMessages() throws {
        let long = try value(String(repeating: "x", count: 50))
        #expect(long.foundDescription == "'" + String(repeating: "x", count: 40) + "…'")
        let root = try #require(try YAMLNode.parse("key: |\n  first\n  second\n", file: "t.yml"))
        #expect(root["key"]?.foundDescription == "the string \"first…\"")
    }
}
