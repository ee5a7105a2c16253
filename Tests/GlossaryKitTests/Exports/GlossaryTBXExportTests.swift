import Foundation
import Testing

@testable import GlossaryKit

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `glossary.tbx`: well-formed XML in TBX-Basic's shape (ISO 30042:2019 DCA style), whatever the terms say.
@Suite struct GlossaryTBXExportTests {
    static let expected = """
        <?xml version="1.0" encoding="UTF-8"?>
        <tbx type="TBX-Basic" style="dca" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed:3.0">
        <tbxHeader>
        <fileDesc>
        <titleStmt><title>Type &amp; Co</title></titleStmt>
        <sourceDesc><p>The glossary of Type &amp; Co (https://docs.example.org/docs/), exported by glossary.</p></sourceDesc>
        </fileDesc>
        </tbxHeader>
        <text>
        <body>
        <conceptEntry id="term-kerning">
        <xref type="externalCrossReference" target="https://docs.example.org/docs/terms/kerning/">Kerning</xref>
        <langSec xml:lang="en">
        <descripGrp>
        <descrip type="definition">The space between two letters; see the intro and quill.
        A second paragraph.</descrip>
        </descripGrp>
        <termSec>
        <term>Kerning</term>
        <termNote type="partOfSpeech">noun</termNote>
        <termNote type="administrativeStatus">preferredTerm-admn-sts</termNote>
        </termSec>
        <termSec>
        <term>pair kerning</term>
        <termNote type="partOfSpeech">noun</termNote>
        <termNote type="administrativeStatus">admittedTerm-admn-sts</termNote>
        </termSec>
        </langSec>
        </conceptEntry>
        <conceptEntry id="term-quill">
        <xref type="externalCrossReference" target="https://docs.example.org/docs/terms/quill/">quill</xref>
        <langSec xml:lang="en">
        <descripGrp>
        <descrip type="definition">noun
        1. A pen made from a feather.
        2. A spine of a porcupine.
        verb
        1. To pleat.</descrip>
        <admin type="source">https://en.wiktionary.org/wiki/quill</admin>
        </descripGrp>
        <termSec>
        <term>quill</term>
        <termNote type="partOfSpeech">noun</termNote>
        <termNote type="administrativeStatus">preferredTerm-admn-sts</termNote>
        </termSec>
        </langSec>
        </conceptEntry>
        </body>
        </text>
        </tbx>

        """

    @Test func oneConceptEntryPerTermWithATermSecPerName() async throws {
        let site = try ExportTestSite(ExportTestSite.typeSite)
        defer { site.remove() }
        let (_, files) = await site.build()
        #expect(files["glossary.tbx"] == Self.expected)
    }

    /// The elements of a TBX file as Foundation's XMLParser reads them, namespaces resolved: an error means the
    /// file is not well-formed.
    final class Reader: NSObject, XMLParserDelegate {
        struct Element {
            var name: String
            var namespace: String?
            var attributes: [String: String]
            var text = ""
            var children: [Int] = []
            var parent: Int?
        }
        var elements: [Element] = []
        private var open: [Int] = []
        var error: Error?

        static func read(_ text: String) -> Reader {
            let reader = Reader()
            let parser = XMLParser(data: Data(text.utf8))
            parser.shouldProcessNamespaces = true
            parser.delegate = reader
            // On Linux parse() can answer true and still have met an error: the error is what tells.
            if !parser.parse() || parser.parserError != nil { reader.error = parser.parserError ?? CocoaError(.coderReadCorrupt) }
            return reader
        }

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            elements.append(Element(name: name, namespace: namespaceURI, attributes: attributes, parent: open.last))
            if let parent = open.last { elements[parent].children.append(elements.count - 1) }
            open.append(elements.count - 1)
        }
        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) { open.removeLast() }
        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if let current = open.last { elements[current].text += string }
        }

        func children(_ index: Int, _ name: String) -> [Int] { elements[index].children.filter { elements[$0].name == name } }
        func names(_ index: Int) -> [String] { elements[index].children.map { elements[$0].name } }
    }

    /// Where a TBX file breaks TBX-Basic's schema and rules (LTAC's TBX-Basic dialect, as far as the export uses
    /// it): the document's structure, what each level may hold and in which order, and the picklists.
    static func tbxBasicProblems(_ reader: Reader) -> [String] {
        var problems: [String] = []
        func require(_ condition: Bool, _ what: @autoclosure () -> String) { if !condition { problems.append(what()) } }
        if let error = reader.error { return ["not well-formed: \(error)"] }
        guard let root = reader.elements.first else { return ["empty"] }
        require(reader.elements.allSatisfy { $0.namespace == GlossaryTBXExport.namespace }, "an element outside TBX's namespace")
        require(root.name == "tbx" && root.attributes["type"] == "TBX-Basic" && root.attributes["style"] == "dca", "root is not TBX-Basic, DCA")
        require(root.attributes["xml:lang"]?.isEmpty == false, "no xml:lang on tbx")
        require(reader.names(0) == ["tbxHeader", "text"], "tbx holds \(reader.names(0))")
        guard reader.names(0) == ["tbxHeader", "text"] else { return problems }
        let fileDesc = reader.children(reader.children(0, "tbxHeader")[0], "fileDesc")
        require(fileDesc.count == 1 && !reader.children(fileDesc[0], "sourceDesc").isEmpty, "no fileDesc with a sourceDesc")
        let body = reader.children(reader.children(0, "text")[0], "body")
        guard body.count == 1 else { return problems + ["no body"] }
        let entries = reader.children(body[0], "conceptEntry")
        require(!entries.isEmpty && reader.names(body[0]).allSatisfy { $0 == "conceptEntry" }, "body must hold conceptEntry elements only, at least one")
        var ids = Set<String>()
        for entry in entries {
            let id = reader.elements[entry].attributes["id"] ?? ""
            require(id.first?.isLetter == true && ids.insert(id).inserted, "id \(id) is not a unique xsd:ID")
            let names = reader.names(entry)
            require(
                names.last == "langSec" && names.allSatisfy { ["xref", "langSec", "descrip", "descripGrp", "note"].contains($0) }, "conceptEntry holds \(names)"
            )
            for xref in reader.children(entry, "xref") {
                let target = reader.elements[xref].attributes["target"] ?? ""
                require(reader.elements[xref].attributes["type"] == "externalCrossReference", "xref type")
                require(target.hasPrefix("https://") || target.hasPrefix("http://"), "xref target \(target) is not http(s)")
            }
            for langSec in reader.children(entry, "langSec") {
                require(reader.elements[langSec].attributes["xml:lang"]?.isEmpty == false, "langSec without xml:lang")
                let inLangSec = reader.names(langSec)
                // Auxiliary information first, then one or more termSec.
                let firstTerm = inLangSec.firstIndex(of: "termSec") ?? inLangSec.endIndex
                require(firstTerm < inLangSec.endIndex && inLangSec[firstTerm...].allSatisfy { $0 == "termSec" }, "langSec must end in termSec: \(inLangSec)")
                let auxiliary = ["descrip", "descripGrp", "admin", "adminGrp", "transacGrp", "note", "ref", "xref"]
                require(inLangSec[..<firstTerm].allSatisfy(auxiliary.contains), "langSec holds \(inLangSec) before its terms")
                for group in reader.children(langSec, "descripGrp") {
                    let descrip = reader.children(group, "descrip")
                    require(reader.names(group).first == "descrip" && descrip.count == 1, "descripGrp holds \(reader.names(group))")
                    require(descrip.allSatisfy { reader.elements[$0].attributes["type"] == "definition" }, "descrip is not a definition")
                    require(reader.children(group, "admin").allSatisfy { reader.elements[$0].attributes["type"] == "source" }, "admin is not a source")
                }
                for termSec in reader.children(langSec, "termSec") {
                    let inTermSec = reader.names(termSec)
                    require(
                        inTermSec.first == "term" && !reader.elements[reader.children(termSec, "term").first ?? termSec].text.isEmpty, "termSec without a term")
                    require(inTermSec.dropFirst().allSatisfy { $0 == "termNote" }, "termSec holds \(inTermSec)")
                    for note in reader.children(termSec, "termNote") {
                        let value = reader.elements[note].text
                        switch reader.elements[note].attributes["type"] {
                        case "partOfSpeech": require(["noun", "verb", "adjective", "adverb", "other"].contains(value), "partOfSpeech \(value)")
                        case "administrativeStatus":
                            require(["preferredTerm-admn-sts", "admittedTerm-admn-sts"].contains(value), "administrativeStatus \(value)")
                        case "termType": require(value == "variant", "termType \(value)")
                        case let type: problems.append("termNote of type \(String(describing: type))")
                        }
                    }
                }
            }
        }
        return problems
    }

    @Test func theExportIsTBXBasicShaped() async throws {
        let site = try ExportTestSite(ExportTestSite.typeSite)
        defer { site.remove() }
        let (_, files) = await site.build()
        let reader = Reader.read(try #require(files["glossary.tbx"]))
        #expect(Self.tbxBasicProblems(reader) == [])
        #expect(reader.elements.filter { $0.name == "term" }.map(\.text) == ["Kerning", "pair kerning", "quill"])
        // A check that passes anything is no check: what TBX-Basic forbids is found.
        let misplaced = Self.expected.replacingOccurrences(of: "<descripGrp>", with: "<termNote type=\"partOfSpeech\">noun</termNote><descripGrp>")
        #expect(
            Self.tbxBasicProblems(Reader.read(misplaced)).first == "langSec holds [\"termNote\", \"descripGrp\", \"termSec\", \"termSec\"] before its terms")
        let offList = Self.expected.replacingOccurrences(of: ">noun</termNote>", with: ">properNoun</termNote>")
        #expect(Self.tbxBasicProblems(Reader.read(offList)).first == "partOfSpeech properNoun")
        #expect(Self.tbxBasicProblems(Reader.read(Self.expected.replacingOccurrences(of: "</descrip>", with: ""))).first?.hasPrefix("not well-formed") == true)
    }

    @Test func markupAndControlCharactersInTermsStayText() async throws {
        let site = try ExportTestSite(
            """
            -- glossary.yml --
            title: "A <b>&</b> \\"site\\""
            language: en-GB
            -- content/index.md --
            [[<script>]]
            -- content/glossary/script.md --
            ---
            term: "<script>"
            aliases: ["a]]>b", "x\\u0001y"]
            part_of_speech: proper noun
            ---
            Less than < and &amp; "quotes" ]]> end.
            """)
        defer { site.remove() }
        let (result, files) = await site.build()
        #expect(result.errors == [])
        let tbx = try #require(files["glossary.tbx"])
        let reader = Reader.read(tbx)
        #expect(Self.tbxBasicProblems(reader) == [])
        #expect(reader.elements.first?.attributes["xml:lang"] == "en-GB")
        #expect(reader.elements.first { $0.name == "title" }?.text == "A <b>&</b> \"site\"")
        #expect(reader.elements.filter { $0.name == "term" }.map(\.text) == ["<script>", "a]]>b", "x\u{FFFD}y"])
        #expect(reader.elements.first { $0.name == "descrip" }?.text == "Less than < and & \"quotes\" ]]> end.")
        #expect(reader.elements.filter { $0.attributes["type"] == "partOfSpeech" }.map(\.text) == ["other", "other", "other"])
        #expect(!tbx.contains("<script>") && !tbx.contains("<b>"))
    }

    /// A concept becomes the `conceptEntry`'s `xsd:ID` as written when it is one (what import reads back), else made one.
    @Test(arguments: [("c-login", "c-login"), ("Konzept_7.b", "Konzept_7.b"), ("42", "c-42"), ("a b:c", "a_b_c"), ("-x", "c--x"), ("", "c-")])
    func conceptsAreIDs(concept: String, id: String) {
        #expect(GlossaryTBXExport.conceptID(concept) == id)
    }

    @Test func formsPagesWroteThatAreNotNamesYetAreVariants() {
        let term = GlossaryExport.Term(
            key: "index", word: "index", sense: nil, slug: "index", url: "/terms/index/", summary: nil, definitionText: "", definitionHTML: "",
            partOfSpeech: "noun", phonetic: nil, audio: [], aliases: ["register"], forms: ["Index", "indices", "register"],
            source: .init(kind: "glossary", urls: [], licenses: [], retrieved: nil), pages: [])
        #expect(
            GlossaryTBXExport.names(term).map { "\($0.name) \($0.status) \($0.variant)" } == [
                "index preferredTerm-admn-sts false", "register admittedTerm-admn-sts false", "indices admittedTerm-admn-sts true",
            ])
        let xml = GlossaryTBXExport.conceptEntry(id: "term-index", terms: [term], language: "en", linked: false, ids: [:])
        #expect(!xml.contains("<descripGrp>"), "no definition, no empty descrip")
        #expect(!xml.contains("<xref"), "no address, no link: TBX-Basic wants http(s) targets")
        #expect(
            xml.contains(
                "<term>indices</term>\n<termNote type=\"partOfSpeech\">noun</termNote>\n<termNote type=\"administrativeStatus\">admittedTerm-admn-sts</termNote>\n<termNote type=\"termType\">variant</termNote>\n"
            ))
    }
}
