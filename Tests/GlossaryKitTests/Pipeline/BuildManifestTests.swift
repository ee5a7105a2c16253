import Testing

@testable import GlossaryKit

/// The manifest's table of search terms: every term back as written, in order, and a damaged number refused.
@Suite struct BuildManifestTests {
    @Test func searchTermsReadBackAsWrittenWithRepeatsAsNumbers() throws {
        let terms = ["pod", "node", "pod", "café", "", "node", "東京", "pod", "a-very-long-term-of-more-than-fifteen-bytes"]
        var writer = BinaryWriter()
        var table = BuildManifest.SearchTermTable.Writing()
        for term in terms { table.write(term, &writer) }
        let bytes = writer.take()
        let inFull = terms.uniqued().reduce(0) { $0 + $1.utf8.count }
        #expect(bytes.count < inFull + terms.count * 2, "repeats take a byte")

        var reader = BinaryReader(bytes)
        var reading = BuildManifest.SearchTermTable.Reading()
        #expect(try terms.map { _ in try reading.read(&reader) } == terms)
        #expect(reader.isAtEnd)
    }

    @Test func aNumberBeyondTheTermsReadSoFarIsDamage() {
        var writer = BinaryWriter()
        writer.write(UInt64(0))
        writer.write("pod")
        writer.write(UInt64(2))
        var reader = BinaryReader(writer.take())
        var reading = BuildManifest.SearchTermTable.Reading()
        #expect((try? reading.read(&reader)) == "pod")
        #expect(throws: BinaryReader.Damaged.self) { try reading.read(&reader) }
    }
}
